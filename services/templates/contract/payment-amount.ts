/**
 * What a payment field may ask for, one rule for the template builder (the field catalogue's
 * config check, shown beside the field) and the send (400 invalid_payment): a whole number
 * of the currency's smallest unit from 1 to 99,999,999 (Stripe's largest single charge), in
 * a currency Stripe charges in (either case: Stripe writes codes lower-case), at least
 * Stripe's smallest charge in that currency, in the steps Stripe takes it, and once or every
 * day, week, month or year. Pure and free of Node imports: the builder page runs it too.
 */
import { currencyDecimals, STRIPE_AMOUNT_STEPS, STRIPE_MINIMUM_CHARGES } from './stripe-currencies.ts';

/** Stripe's largest single charge, in the currency's smallest unit. */
export const MAX_AMOUNT_CENTS = 99_999_999;

export const AMOUNT_RULE_TEXT = 'a whole number of cents from 1 to 99,999,999';

/** The currency of a payment field without `config.currency`: what the builder and the form show. */
export const DEFAULT_CURRENCY = 'usd';

/** `config.interval` of a subscription; a field without one charges once. */
export const PAYMENT_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type PaymentInterval = (typeof PAYMENT_INTERVALS)[number];

/** Whether `value` is an amount a payment field may ask for, in any currency. */
export const validAmountCents = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_AMOUNT_CENTS;

/** The field's currency as Stripe takes it: lower-case, DEFAULT_CURRENCY when not set. */
export function paymentCurrency(config: { currency?: unknown }): string {
  return typeof config.currency === 'string' ? config.currency.toLowerCase() : DEFAULT_CURRENCY;
}

/** Whether Stripe charges in `currency` (either case). */
export function stripeCharges(currency: unknown): currency is string {
  return typeof currency === 'string' && Object.hasOwn(STRIPE_MINIMUM_CHARGES, currency.toLowerCase());
}

/** Stripe's smallest charge in `currency` (smallest unit); undefined when Stripe does not charge in it. */
export function minimumCharge(currency: string): number | undefined {
  const code = currency.toLowerCase();
  return Object.hasOwn(STRIPE_MINIMUM_CHARGES, code) ? STRIPE_MINIMUM_CHARGES[code] : undefined;
}

/** An amount in the smallest unit written in the currency's units, without grouping: 50 eur -> "0.50". */
export function majorUnits(amount: number, currency: string): string {
  const decimals = currencyDecimals(currency);
  return (amount / 10 ** decimals).toFixed(decimals);
}

/**
 * What is wrong with a payment, first problem only: `amount` (not a whole number from 1 to
 * 99,999,999: the callers keep their own words with AMOUNT_RULE_TEXT), or `currency`,
 * `minimum`, `step`, `interval` with the words for the template's author.
 */
export type PaymentProblem =
  { code: 'amount' } | { code: 'currency' | 'minimum' | 'step' | 'interval'; message: string };

export function paymentProblem(config: {
  amount_cents?: unknown;
  currency?: unknown;
  interval?: unknown;
}): PaymentProblem | null {
  const amount = config.amount_cents;
  if (!validAmountCents(amount)) return { code: 'amount' };
  const currency = config.currency ?? DEFAULT_CURRENCY;
  if (!stripeCharges(currency)) {
    return { code: 'currency', message: `Stripe cannot charge in ${String(currency).toUpperCase()}` };
  }
  const code = currency.toUpperCase();
  const minimum = minimumCharge(currency) ?? 1;
  if (amount < minimum) {
    return {
      code: 'minimum',
      message: `The smallest amount Stripe charges in ${code} is ${majorUnits(minimum, currency)}`,
    };
  }
  const step = STRIPE_AMOUNT_STEPS[currency.toLowerCase()] ?? 1;
  if (amount % step !== 0) {
    return {
      code: 'step',
      message: `Stripe charges ${code} in steps of ${majorUnits(step, currency)}`,
    };
  }
  const interval = config.interval;
  if (
    interval !== undefined &&
    interval !== null &&
    !(PAYMENT_INTERVALS as readonly unknown[]).includes(interval)
  ) {
    return { code: 'interval', message: 'The interval must be day, week, month or year' };
  }
  return null;
}
