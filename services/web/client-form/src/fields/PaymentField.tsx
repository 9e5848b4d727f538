/**
 * A payment the team collects through its own processor: the page shows the amount, what
 * it is for and who collects it, and "Payment received" once the processor's payment is
 * recorded for the field (the portal's paid_field_ids).
 */
import type { PortalOnboarding } from '../api.ts';
import type { FieldProps } from './field-props.ts';
import { ErrorText, RequiredMarker } from './FieldFrame.tsx';
import { configText, helpText } from './field-text.ts';

export function paymentReceived(onboarding: PortalOnboarding, fieldId: string): boolean {
  return onboarding.paid_field_ids.includes(fieldId);
}

export function PaymentField({ field, onboarding, problem, ids, t, formats, team }: FieldProps) {
  const amount = field.config?.amount_cents;
  const currency = field.config?.currency;
  const description = configText(field, 'description');
  const help = helpText(field);
  const paid = paymentReceived(onboarding, field.id);
  const titleId = `${ids.input}-title`;
  return (
    <section class={`field field--${field.type} payment`} aria-labelledby={titleId}>
      <div class="field__label-row">
        <h2 id={titleId} class="field__label payment__title">
          {field.label}
        </h2>
        {field.is_required ? <RequiredMarker t={t} /> : null}
      </div>
      {typeof amount === 'number' && typeof currency === 'string' ? (
        <p class="payment__amount">{t('payment.amount', { amount: formats.money(amount, currency) })}</p>
      ) : null}
      {description ? <p class="payment__description">{description}</p> : null}
      {help ? (
        <p id={ids.help} class="field__help">
          {help}
        </p>
      ) : null}
      {paid ? (
        <p class="payment__paid">{t('payment.paid')}</p>
      ) : (
        <p class="payment__note">{t('payment.note', { team })}</p>
      )}
      <ErrorText id={ids.error} problem={paid ? null : problem} t={t} formats={formats} />
    </section>
  );
}
