import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldConfigProblems } from './field-catalogue.ts';
import {
  MAX_AMOUNT_CENTS,
  majorUnits,
  paymentCurrency,
  paymentProblem,
  validAmountCents,
} from './payment-amount.ts';
import {
  STRIPE_CURRENCIES,
  STRIPE_MINIMUM_CHARGES,
  ZERO_DECIMAL_CURRENCIES,
  currencyDecimals,
} from './stripe-currencies.ts';

const builderProblems = (config: Record<string, unknown>) =>
  fieldConfigProblems({ type: 'payment', label: 'Fee', is_required: true, config });
const builderAccepts = (config: Record<string, unknown>) => builderProblems(config).length === 0;
const sendAccepts = (config: Record<string, unknown>) => paymentProblem(config) === null;
const AMOUNT_WORDS = 'config.amount_cents must be a whole number of cents from 1 to 99,999,999';

describe('one payment rule for the builder and the send', () => {
  it('bounds amounts to whole units from the currency minimum to 99,999,999', () => {
    for (const [amount_cents, currency] of [
      [50, 'usd'],
      [MAX_AMOUNT_CENTS, 'usd'],
      [50, 'EUR'],
      [30, 'gbp'],
      [50, 'jpy'],
      [MAX_AMOUNT_CENTS, 'JPY'],
      [17_500, 'huf'],
    ] as const) {
      const config = { amount_cents, currency };
      expect([builderAccepts(config), sendAccepts(config)], JSON.stringify(config)).toEqual([true, true]);
    }
    for (const amount of [
      0,
      -1,
      1.5,
      MAX_AMOUNT_CENTS + 1,
      2 ** 31,
      2 ** 53,
      1e300,
      Infinity,
      NaN,
      '100',
      null,
    ]) {
      const config = { amount_cents: amount, currency: 'USD' };
      expect(builderProblems(config), String(amount)).toEqual([AMOUNT_WORDS]);
      expect(paymentProblem(config), String(amount)).toEqual({ code: 'amount' });
    }
  });

  it('refuses each minimum one unit below, in words with the amount in the currency', () => {
    expect(builderProblems({ amount_cents: 49, currency: 'eur' })).toEqual([
      'The smallest amount Stripe charges in EUR is 0.50',
    ]);
    expect(builderProblems({ amount_cents: 29, currency: 'GBP' })).toEqual([
      'The smallest amount Stripe charges in GBP is 0.30',
    ]);
    expect(builderProblems({ amount_cents: 49, currency: 'jpy' })).toEqual([
      'The smallest amount Stripe charges in JPY is 50',
    ]);
    expect(builderProblems({ amount_cents: 49 })).toEqual([
      'The smallest amount Stripe charges in USD is 0.50',
    ]);
    for (const currency of STRIPE_CURRENCIES) {
      const minimum = STRIPE_MINIMUM_CHARGES[currency]!;
      expect(sendAccepts({ amount_cents: minimum, currency }), currency).toBe(true);
      expect(paymentProblem({ amount_cents: minimum - 1, currency })?.code, currency).toBe(
        minimum > 1 ? 'minimum' : 'amount',
      );
    }
  });

  it('zero-decimal currencies take amount_cents as the whole amount', () => {
    expect(ZERO_DECIMAL_CURRENCIES.has('jpy') && ZERO_DECIMAL_CURRENCIES.has('krw')).toBe(true);
    expect(currencyDecimals('JPY')).toBe(0);
    expect(currencyDecimals('kwd')).toBe(3);
    expect(currencyDecimals('eur')).toBe(2);
    expect(majorUnits(15_000, 'jpy')).toBe('15000');
    expect(majorUnits(15_000, 'eur')).toBe('150.00');
    expect(majorUnits(1_500, 'kwd')).toBe('1.500');
    expect(sendAccepts({ amount_cents: 800, currency: 'KRW' })).toBe(true);
  });

  it('refuses a currency Stripe cannot charge in, naming it in upper case', () => {
    for (const currency of ['xyz', 'XYZ', 'hrk', 'ZWL']) {
      expect(builderProblems({ amount_cents: 5000, currency }), currency).toEqual([
        `Stripe cannot charge in ${currency.toUpperCase()}`,
      ]);
      expect(paymentProblem({ amount_cents: 5000, currency })).toEqual({
        code: 'currency',
        message: `Stripe cannot charge in ${currency.toUpperCase()}`,
      });
    }
    expect(paymentProblem({ amount_cents: 5000, currency: 7 })?.code).toBe('currency');
    // A malformed code is the catalogue's format problem, said once.
    expect(builderProblems({ amount_cents: 5000, currency: 'dollars' })).toEqual([
      'config.currency must be a three-letter ISO 4217 code such as USD',
    ]);
  });

  it('takes the code in either case, lower-case for Stripe', () => {
    for (const currency of ['eur', 'EUR', 'Eur'])
      expect(sendAccepts({ amount_cents: 50, currency }), currency).toBe(true);
    expect(paymentCurrency({ currency: 'EUR' })).toBe('eur');
    expect(paymentCurrency({})).toBe('usd');
    expect(STRIPE_CURRENCIES.every((code) => code === code.toLowerCase() && code.length === 3)).toBe(true);
  });

  it('takes three-decimal currencies in steps of 0.010 and isk in whole krónur', () => {
    expect(paymentProblem({ amount_cents: 1_705, currency: 'kwd' })).toEqual({
      code: 'step',
      message: 'Stripe charges KWD in steps of 0.010',
    });
    expect(sendAccepts({ amount_cents: 1_710, currency: 'kwd' })).toBe(true);
    expect(paymentProblem({ amount_cents: 10_050, currency: 'isk' })?.code).toBe('step');
    expect(sendAccepts({ amount_cents: 10_000, currency: 'isk' })).toBe(true);
  });

  it('charges once or every day, week, month or year', () => {
    for (const interval of [undefined, null, 'day', 'week', 'month', 'year'])
      expect(sendAccepts({ amount_cents: 5000, interval }), String(interval)).toBe(true);
    for (const interval of ['monthly', 'Month', 3])
      expect(builderProblems({ amount_cents: 5000, interval })).toEqual([
        'The interval must be day, week, month or year',
      ]);
  });

  it('property: the builder accepts a payment exactly when the send does', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -10, max: 2 * MAX_AMOUNT_CENTS }), fc.double(), fc.jsonValue()),
        fc.oneof(fc.constantFrom(...STRIPE_CURRENCIES, 'EUR', 'JPY', 'xyz'), fc.constant(undefined)),
        fc.constantFrom(undefined, 'month', 'fortnight'),
        (amount, currency, interval) => {
          const config = { amount_cents: amount, currency, interval };
          expect(builderAccepts(config)).toBe(sendAccepts(config));
          if (sendAccepts(config)) expect(validAmountCents(amount)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
