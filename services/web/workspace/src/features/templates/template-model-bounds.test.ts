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
  it('shows the payment amount rule beside the field for 1e300 and 2^31, none for 99,999,999', () => {
    for (const amount of [1e300, 2 ** 31, 0]) {
      const fee = newField('payment', 'fee', 'Retainer fee');
      fee.config = { ...fee.config, amount_cents: amount };
      expect(problemsOf(template([fee])).fields.fee, String(amount)).toEqual([
        'Amount cents must be a whole number of cents from 1 to 99,999,999.',
      ]);
    }
    const fee = newField('payment', 'fee', 'Retainer fee');
    fee.config = { ...fee.config, amount_cents: 99_999_999 };
    expect(problemsOf(template([fee])).fields.fee).toBeUndefined();
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
