import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validAmountCents as sendRule } from '../../onboardings/template-snapshot.ts';
import { fieldConfigProblems } from './field-catalogue.ts';
import { MAX_AMOUNT_CENTS } from './payment-amount.ts';

const builderAccepts = (amount: unknown) =>
  fieldConfigProblems({ type: 'payment', label: 'Fee', is_required: true, config: { amount_cents: amount } })
    .length === 0;

describe('one payment amount rule for the builder and the send', () => {
  it('bounds amounts to whole cents from 1 to 99,999,999', () => {
    for (const amount of [1, 100, MAX_AMOUNT_CENTS])
      expect([builderAccepts(amount), sendRule(amount)]).toEqual([true, true]);
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
      expect([builderAccepts(amount), sendRule(amount)], String(amount)).toEqual([false, false]);
    }
  });

  it('property: the builder accepts an amount exactly when the send does', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -10, max: 2 * MAX_AMOUNT_CENTS }), fc.double(), fc.jsonValue()),
        (amount) => {
          expect(builderAccepts(amount)).toBe(sendRule(amount));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
