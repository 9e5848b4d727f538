import { describe, expect, it } from 'vitest';
import { newField, newStep, problemsOf, type BuilderTemplate } from './template-model.ts';

/** The builder page shows the service's payment amount rule beside the field, and checks rules in linear time. */
const template = (fields: BuilderTemplate['steps'][number]['fields']): BuilderTemplate => {
  const step = newStep('s1', 'Pay');
  step.fields = fields;
  return {
    id: 't',
    version: 1,
    name: 'Retainer',
    description: null,
    vertical: null,
    settings: {},
    translations: null,
    steps: [step],
  };
};

describe('template builder bounds', () => {
  it('shows the payment rule beside the field in the currency: range, minimum, unknown currency', () => {
    const fee = (config: Record<string, unknown>) => {
      const field = newField('payment', 'fee', 'Retainer fee');
      field.config = { ...field.config, ...config };
      return problemsOf(template([field])).fields.fee;
    };
    for (const amount of [1e300, 2 ** 31, 0]) {
      expect(fee({ amount_cents: amount }), String(amount)).toEqual([
        'Enter an amount from 0.50 to 999,999.99 USD.',
      ]);
    }
    expect(fee({ amount_cents: 0, currency: 'JPY' })).toEqual(['Enter an amount from 50 to 99,999,999 JPY.']);
    expect(fee({ amount_cents: 49, currency: 'EUR' })).toEqual([
      'The smallest amount Stripe charges in EUR is 0.50.',
    ]);
    expect(fee({ currency: 'XYZ' })).toEqual(['Stripe cannot charge in XYZ.']);
    expect(fee({ amount_cents: 99_999_999 })).toBeUndefined();
    expect(fee({ amount_cents: 50, currency: 'eur', interval: 'month' })).toBeUndefined();
  });

  it('refuses a rule naming its own field and checks 1,000 rules in a few milliseconds', () => {
    const self = newField('short_text', 'self', 'Self');
    self.conditional_rules = { show_when: { field_id: 'self', operator: 'is_empty' } };
    expect(problemsOf(template([self])).fields.self).toEqual([
      'The show-when rule names a field this template does not hold.',
    ]);
    const many = Array.from({ length: 1000 }, (_, n) => {
      const field = newField('short_text', `f${n}`, `Field ${n}`);
      field.conditional_rules = { show_when: { field_id: `f${(n + 1) % 1000}`, operator: 'is_not_empty' } };
      return field;
    });
    const started = performance.now();
    expect(problemsOf(template(many)).count).toBe(0);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
