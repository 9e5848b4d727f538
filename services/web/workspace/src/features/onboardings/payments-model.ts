/** The payments of an onboarding as the workspace API gives them, and how the panel words them (pure). */
import type { ApiAnswer } from '../../api.ts';
import { currencyDecimals } from '../../../../../templates/contract/stripe-currencies.ts';

export type PaymentsAnswer = ApiAnswer<'/workspace/v1/onboardings/{onboarding_id}/payments', 'get'>;
/** One payment field and its payment (GET /workspace/v1/onboardings/{onboarding_id}/payments). */
export type OnboardingPayment = PaymentsAnswer['payments'][number];

/** Pure: an amount in the currency's smallest unit, in `locale` ("€150.00"; "¥500"; "KWD 1.500"). */
export function formatAmount(amount: number, currency: string, locale: string): string {
  const decimals = currencyDecimals(currency);
  const code = currency.toUpperCase();
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(amount / 10 ** decimals);
  } catch {
    return `${code} ${(amount / 10 ** decimals).toFixed(decimals)}`;
  }
}

/** Pure: whether the team may still mark the field paid (nothing received for it yet). */
export const awaitsPayment = (payment: OnboardingPayment) =>
  payment.status === 'unpaid' || payment.status === 'failed';

/** Pure: the Stripe ids worth showing: the subscription's, and the payment intent's when it is another id. */
export function stripeIds(payment: OnboardingPayment): { label: string; id: string }[] {
  const ids: { label: string; id: string }[] = [];
  if (payment.subscription_id) ids.push({ label: 'payments.subscriptionId', id: payment.subscription_id });
  if (payment.payment_intent_id && payment.payment_intent_id !== payment.subscription_id)
    ids.push({ label: 'payments.paymentIntentId', id: payment.payment_intent_id });
  return ids;
}
