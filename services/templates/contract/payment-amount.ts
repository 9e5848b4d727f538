/**
 * The amount a payment field asks for, one rule for the template builder (the field
 * catalogue's config check, shown beside the field) and the send (400 invalid_payment):
 * a whole number of cents from 1 to 99,999,999, the largest amount Stripe charges in one
 * payment (999,999.99 in a two-decimal currency). Pure and free of Node imports: the
 * builder page runs it too.
 */

/** Stripe's largest single charge, in the currency's smallest unit. */
export const MAX_AMOUNT_CENTS = 99_999_999;

export const AMOUNT_RULE_TEXT = 'a whole number of cents from 1 to 99,999,999';

/** Whether `value` is an amount a payment field may ask for. */
export const validAmountCents = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_AMOUNT_CENTS;
