import { choiceOptions, isEmptyAnswer } from '../../../templates/contract/field-catalogue.ts';
import type { PortalOnboarding } from './api.ts';
import type { LocalizedField } from './fields/field-props.ts';
import type { Formats, Translate } from './i18n.ts';

/** A field's answer as the Review screen shows it; null for fields that show text only. */
export function displayAnswer(
  field: LocalizedField,
  value: unknown,
  onboarding: PortalOnboarding,
  { t, formats, locale }: { t: Translate; formats: Formats; locale: string },
): string | null {
  const config = field.config ?? {};
  switch (field.type) {
    case 'heading':
    case 'paragraph':
      return null;
    case 'file_upload': {
      const count = (onboarding.files ?? []).filter((file) => file.field_id === field.id).length;
      return count === 0 ? t('review.noAnswer') : t('review.filesCount', { count });
    }
    case 'signature': {
      const signature = (onboarding.signatures ?? []).find((candidate) => candidate.field_id === field.id);
      return signature
        ? t('signature.signed', { name: signature.signer_name, date: formats.longDate(signature.signed_at) })
        : t('review.notSigned');
    }
    case 'payment': {
      if ((onboarding.paid_field_ids ?? []).includes(field.id)) {
        return t('payment.paid');
      }
      const cents = config.amount_cents;
      const currency = typeof config.currency === 'string' ? config.currency.toUpperCase() : 'USD';
      if (typeof cents !== 'number') return '';
      const amount = formats.money(cents, currency);
      const interval = ['day', 'week', 'month', 'year'].find((known) => known === config.interval);
      return interval ? t(`payment.amountEvery.${interval}`, { amount }) : t('payment.amount', { amount });
    }
    default:
      break;
  }
  if (value === undefined || isEmptyAnswer(value)) return t('review.noAnswer');
  const labelOf = (option: string) =>
    choiceOptions(field).find((candidate) => candidate.value === option)?.label ?? option;
  switch (field.type) {
    case 'checkbox':
      return value === true ? t('checkbox.yes') : t('review.noAnswer');
    case 'number':
      return typeof value === 'number' ? formats.number(value) : String(value);
    case 'date':
      return typeof value === 'string' ? formats.longDate(value) : String(value);
    case 'single_choice':
    case 'dropdown':
      return labelOf(String(value));
    case 'multiple_choice':
      return Array.isArray(value)
        ? new Intl.ListFormat(locale, { type: 'conjunction' }).format(
            value.map((item) => labelOf(String(item))),
          )
        : String(value);
    default:
      return typeof value === 'string' || typeof value === 'number' ? String(value) : t('review.noAnswer');
  }
}
