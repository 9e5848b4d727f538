import {
  choiceOptions,
  isDisplayOnly,
  localizeField,
  translationFor,
} from '../templates/contract/field-catalogue.ts';
import { isLocale, DEFAULT_LOCALE, type Locale } from '../../shared/i18n/locales.ts';
import { humanDate, humanDateTime } from '../../shared/i18n/human-date.ts';
import type { CopiedStep } from './client-emails/kinds.ts';
import type { TemplateSnapshot } from './onboarding-events.ts';

export type { CopiedStep } from './client-emails/kinds.ts';

/**
 * The copy of what a client sent, as text in the client's language: each step's title and
 * each answer (choices by their labels, dates as people read them, a checkbox as yes or no,
 * files by name, a signature by its signer and time, a payment by its amount). Pure: the
 * `completed` email's `steps` and the signed PDF (./documents/) are both written from it.
 * Steps and fields the client left without an answer are left out; headings and
 * paragraphs take no answer.
 */
export interface SubmissionFacts {
  snapshot: TemplateSnapshot;
  /** The answers as the client entered them (opened), by field id. */
  values: Readonly<Record<string, unknown>>;
  files: readonly { field_id: string; file_name: string }[];
  signatures: readonly { field_id: string; signer_name: string; signed_at: string }[];
  payments: readonly {
    field_id: string;
    amount_cents: number;
    currency: string;
    paid_at: string;
    manual: boolean;
  }[];
  locale: string;
  timeZone?: string | null;
}

interface Words {
  yes: string;
  no: string;
  signed: (name: string, at: string) => string;
  paid: (amount: string, at: string) => string;
  paidManually: (amount: string, at: string) => string;
}

/** The few words of the copy that are not the client's or the template's, in each language. */
export const COPY_WORDS: Readonly<Record<Locale, Words>> = {
  'en-US': {
    yes: 'Yes',
    no: 'No',
    signed: (name, at) => `Signed by ${name} on ${at}`,
    paid: (amount, at) => `Paid ${amount} on ${at}`,
    paidManually: (amount, at) => `${amount} received on ${at}`,
  },
  'en-GB': {
    yes: 'Yes',
    no: 'No',
    signed: (name, at) => `Signed by ${name} on ${at}`,
    paid: (amount, at) => `Paid ${amount} on ${at}`,
    paidManually: (amount, at) => `${amount} received on ${at}`,
  },
  'es-ES': {
    yes: 'Sí',
    no: 'No',
    signed: (name, at) => `Firmado por ${name} el ${at}`,
    paid: (amount, at) => `Pagado ${amount} el ${at}`,
    paidManually: (amount, at) => `${amount} recibido el ${at}`,
  },
  'fr-FR': {
    yes: 'Oui',
    no: 'Non',
    signed: (name, at) => `Signé par ${name} le ${at}`,
    paid: (amount, at) => `${amount} payé le ${at}`,
    paidManually: (amount, at) => `${amount} reçu le ${at}`,
  },
  'de-DE': {
    yes: 'Ja',
    no: 'Nein',
    signed: (name, at) => `Unterschrieben von ${name} am ${at}`,
    paid: (amount, at) => `${amount} bezahlt am ${at}`,
    paidManually: (amount, at) => `${amount} erhalten am ${at}`,
  },
  'pt-BR': {
    yes: 'Sim',
    no: 'Não',
    signed: (name, at) => `Assinado por ${name} em ${at}`,
    paid: (amount, at) => `${amount} pago em ${at}`,
    paidManually: (amount, at) => `${amount} recebido em ${at}`,
  },
  'it-IT': {
    yes: 'Sì',
    no: 'No',
    signed: (name, at) => `Firmato da ${name} il ${at}`,
    paid: (amount, at) => `${amount} pagato il ${at}`,
    paidManually: (amount, at) => `${amount} ricevuto il ${at}`,
  },
  'nl-NL': {
    yes: 'Ja',
    no: 'Nee',
    signed: (name, at) => `Ondertekend door ${name} op ${at}`,
    paid: (amount, at) => `${amount} betaald op ${at}`,
    paidManually: (amount, at) => `${amount} ontvangen op ${at}`,
  },
  'ja-JP': {
    yes: 'はい',
    no: 'いいえ',
    signed: (name, at) => `${name} が ${at} に署名`,
    paid: (amount, at) => `${at} に ${amount} を支払い済み`,
    paidManually: (amount, at) => `${at} に ${amount} を受領`,
  },
};

/** The copy's language: the client's when it is one of the nine, else en-US. */
export const copyLocale = (locale: string | null | undefined): Locale =>
  isLocale(locale) ? locale : DEFAULT_LOCALE;

/** An amount in minor units as money in `locale` (EUR 150.00 → "150,00 €" in de-DE). */
export function money(amountCents: number, currency: string, locale: string): string {
  const code = currency.toUpperCase();
  try {
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
      .maximumFractionDigits;
    return new Intl.NumberFormat(locale, { style: 'currency', currency: code }).format(
      amountCents / 10 ** (digits ?? 2),
    );
  } catch {
    return `${(amountCents / 100).toFixed(2)} ${code}`;
  }
}

/** One answer as text; null when the client gave none. */
function answerText(
  field: { type: string; config: Record<string, unknown> | null },
  value: unknown,
  locale: Locale,
): string | null {
  if (value === null || value === undefined || value === '') return null;
  const words = COPY_WORDS[locale];
  const label = (option: string) =>
    choiceOptions(field).find((candidate) => candidate.value === option)?.label ?? option;
  switch (field.type) {
    case 'date':
      return typeof value === 'string' ? humanDate(value, locale) : null;
    case 'checkbox':
      return value === true ? words.yes : words.no;
    case 'number':
      return typeof value === 'number' ? new Intl.NumberFormat(locale).format(value) : String(value);
    case 'single_choice':
    case 'dropdown':
      return typeof value === 'string' ? label(value) : null;
    case 'multiple_choice':
      return Array.isArray(value) && value.length > 0
        ? value.map((item) => label(String(item))).join(', ')
        : null;
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/** The text of a field answered by its own event (files, signature, payment); null when none. */
function fulfilledText(facts: SubmissionFacts, fieldId: string, type: string, locale: Locale): string | null {
  const words = COPY_WORDS[locale];
  const when = (at: string) => humanDateTime(at, locale, facts.timeZone);
  if (type === 'file_upload') {
    const names = facts.files.filter((file) => file.field_id === fieldId).map((file) => file.file_name);
    return names.length > 0 ? names.join(', ') : null;
  }
  if (type === 'signature') {
    const signature = facts.signatures.filter((signed) => signed.field_id === fieldId).at(-1);
    return signature ? words.signed(signature.signer_name, when(signature.signed_at)) : null;
  }
  const payment = facts.payments.filter((paid) => paid.field_id === fieldId).at(-1);
  if (!payment) return null;
  const amount = money(payment.amount_cents, payment.currency, locale);
  return (payment.manual ? words.paidManually : words.paid)(amount, when(payment.paid_at));
}

/** The copy of the submission: every step with at least one answer, its answers in form order. */
export function submissionCopy(facts: SubmissionFacts): CopiedStep[] {
  const locale = copyLocale(facts.locale);
  const byOrder = <T extends { sort_order: number }>(items: readonly T[]) =>
    [...items].sort((a, b) => a.sort_order - b.sort_order);
  return byOrder(facts.snapshot.steps).flatMap((step) => {
    const answers = byOrder(step.fields).flatMap((raw) => {
      if (isDisplayOnly(raw.type)) return [];
      const field = localizeField(raw, locale);
      const text = ['file_upload', 'signature', 'payment'].includes(field.type)
        ? fulfilledText(facts, field.id, field.type, locale)
        : answerText(field, facts.values[field.id], locale);
      return text === null ? [] : [{ label: field.label, text }];
    });
    if (answers.length === 0) return [];
    const title = translationFor(step.translations, locale).title;
    return [{ title: typeof title === 'string' && title ? title : step.title, answers }];
  });
}
