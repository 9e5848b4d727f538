import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ruleHolds, ruleProblems, showWhenOf, visibility, type RuleForm } from './conditional-rules.ts';

const when = (field_id: string, operator: string, value?: unknown) => ({
  show_when: { field_id, operator, ...(value === undefined ? {} : { value }) },
});

describe('conditional rules: reading a rule', () => {
  it('reads the four operators', () => {
    expect(showWhenOf(when('a', 'equals', 'yes'))).toEqual({
      field_id: 'a',
      operator: 'equals',
      value: 'yes',
    });
    expect(showWhenOf(when('a', 'contains', 3))).toEqual({ field_id: 'a', operator: 'contains', value: '3' });
    expect(showWhenOf(when('a', 'is_empty'))).toEqual({ field_id: 'a', operator: 'is_empty' });
    expect(showWhenOf(when('a', 'is_not_empty', 'ignored'))).toEqual({
      field_id: 'a',
      operator: 'is_not_empty',
    });
  });

  it('reads no rule and every unknown shape as "always shown" (null)', () => {
    for (const unknown of [
      null,
      undefined,
      'x',
      [],
      [when('a', 'equals', 'x')],
      {},
      { show_when: null },
      { hide_when: { field_id: 'a', operator: 'equals', value: 'x' } },
      when('a', 'greater_than', 3),
      when('a', 'equals'),
      when('', 'is_empty'),
      { show_when: { operator: 'is_empty' } },
    ]) {
      expect(showWhenOf(unknown)).toBeNull();
    }
  });
});

describe('conditional rules: one rule on one answer', () => {
  const rule = (operator: 'equals' | 'contains' | 'is_empty' | 'is_not_empty', value?: string) => ({
    field_id: 'f',
    operator,
    value,
  });

  it('equals: trimmed text without regard to case, numbers and yes/no as text, one choice of a list', () => {
    expect(ruleHolds(rule('equals', 'Yes'), ' yes ')).toBe(true);
    expect(ruleHolds(rule('equals', 'yes'), 'yes please')).toBe(false);
    expect(ruleHolds(rule('equals', '42'), 42)).toBe(true);
    expect(ruleHolds(rule('equals', 'true'), true)).toBe(true);
    expect(ruleHolds(rule('equals', 'a'), ['a'])).toBe(true);
    expect(ruleHolds(rule('equals', 'a'), ['a', 'b'])).toBe(false);
    expect(ruleHolds(rule('equals', 'a'), null)).toBe(false);
  });

  it('contains: part of the text, or one of the choices', () => {
    expect(ruleHolds(rule('contains', 'LTD'), 'Acme Ltd.')).toBe(true);
    expect(ruleHolds(rule('contains', 'b'), ['a', 'b'])).toBe(true);
    expect(ruleHolds(rule('contains', 'c'), ['a', 'b'])).toBe(false);
    expect(ruleHolds(rule('contains', 'x'), '')).toBe(false);
  });

  it('is_empty and is_not_empty follow the catalogue (blank, no choices, unticked box)', () => {
    for (const empty of [null, undefined, '', '  ', [], false, {}]) {
      expect(ruleHolds(rule('is_empty'), empty)).toBe(true);
      expect(ruleHolds(rule('is_not_empty'), empty)).toBe(false);
    }
    for (const given of ['a', 0, true, ['a']]) {
      expect(ruleHolds(rule('is_empty'), given)).toBe(false);
      expect(ruleHolds(rule('is_not_empty'), given)).toBe(true);
    }
  });

  it('property: is_empty and is_not_empty are opposites on any JSON answer', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (answer) => {
        expect(ruleHolds(rule('is_empty'), answer)).toBe(!ruleHolds(rule('is_not_empty'), answer));
      }),
    );
  });

  it('property: a text equal to the value also contains it; equals implies not empty', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), fc.string(), (value, before, after) => {
        fc.pre(value.trim() !== '');
        expect(ruleHolds(rule('equals', value), value)).toBe(true);
        expect(ruleHolds(rule('contains', value.trim()), `${before}${value}${after}`)).toBe(true);
        expect(ruleHolds(rule('equals', value), '')).toBe(false);
      }),
    );
  });
});

describe('conditional rules: a whole form', () => {
  const form: RuleForm = {
    steps: [
      {
        id: 's1',
        fields: [
          { id: 'kind', conditional_rules: null },
          { id: 'company', conditional_rules: when('kind', 'equals', 'business') },
          { id: 'vat', conditional_rules: when('company', 'is_not_empty') },
        ],
      },
      { id: 's2', conditional_rules: when('kind', 'equals', 'business'), fields: [{ id: 'invoice' }] },
      { id: 's3', conditional_rules: { legacy: true }, fields: [{ id: 'odd', conditional_rules: 'x' }] },
    ],
  };

  it('shows a field and a step when the answer holds, and hides them otherwise', () => {
    const person = visibility(form, (id) => ({ kind: 'person', company: 'Acme' })[id]);
    expect(person.fieldShown('kind')).toBe(true);
    expect(person.fieldShown('company')).toBe(false);
    // A hidden field's answer counts as empty: vat is hidden though company holds text.
    expect(person.fieldShown('vat')).toBe(false);
    expect(person.stepShown('s2')).toBe(false);
    expect(person.fieldShown('invoice')).toBe(false);

    const business = visibility(form, (id) => ({ kind: 'Business', company: 'Acme' })[id]);
    expect(business.fieldShown('company')).toBe(true);
    expect(business.fieldShown('vat')).toBe(true);
    expect(business.stepShown('s2')).toBe(true);
    expect(business.fieldShown('invoice')).toBe(true);
  });

  it('unknown shapes are always shown; unknown ids are not', () => {
    const shown = visibility(form, () => null);
    expect(shown.stepShown('s3')).toBe(true);
    expect(shown.fieldShown('odd')).toBe(true);
    expect(shown.fieldShown('nope')).toBe(false);
    expect(shown.stepShown('nope')).toBe(false);
  });

  it('a cycle of rules ends: the answer read inside the cycle is empty', () => {
    const cyclic: RuleForm = {
      steps: [
        {
          id: 's',
          fields: [
            { id: 'a', conditional_rules: when('b', 'is_empty') },
            { id: 'b', conditional_rules: when('a', 'is_empty') },
          ],
        },
      ],
    };
    const shown = visibility(cyclic, () => null);
    expect(typeof shown.fieldShown('a')).toBe('boolean');
    expect(typeof shown.fieldShown('b')).toBe('boolean');
  });

  it('property: a form without rules shows every step and field, whatever the answers', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.uuid(), { maxLength: 4 }), { maxLength: 4 }),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (stepFields, answers) => {
          const plain: RuleForm = {
            steps: stepFields.map((ids, index) => ({
              id: `step-${index}`,
              fields: ids.map((id) => ({ id, conditional_rules: null })),
            })),
          };
          const shown = visibility(plain, (id) => answers[id]);
          for (const step of plain.steps) {
            expect(shown.stepShown(step.id)).toBe(true);
            for (const field of step.fields ?? []) expect(shown.fieldShown(field.id)).toBe(true);
          }
        },
      ),
    );
  });

  it('property: a field is never shown when its step is hidden', () => {
    fc.assert(
      fc.property(fc.constantFrom('person', 'business', '', null), fc.string(), (kind, company) => {
        const shown = visibility(form, (id) => ({ kind, company })[id as 'kind' | 'company']);
        if (!shown.stepShown('s2')) expect(shown.fieldShown('invoice')).toBe(false);
        if (!shown.fieldShown('company')) expect(shown.fieldShown('vat')).toBe(false);
      }),
    );
  });
});

describe('conditional rules: what a builder may save', () => {
  const ids = new Set(['a', 'b']);
  it('accepts no rule and a complete rule', () => {
    expect(ruleProblems(null, ids)).toEqual([]);
    expect(ruleProblems(when('a', 'equals', 'x'), ids)).toEqual([]);
    expect(ruleProblems(when('b', 'is_empty'), ids)).toEqual([]);
  });
  it('refuses unknown shapes, unknown fields and a missing value', () => {
    expect(ruleProblems({ x: 1 }, ids)[0]).toMatch(/show_when/);
    expect(ruleProblems(when('c', 'is_empty'), ids)).toEqual([
      'conditional_rules names a field this template does not hold',
    ]);
    expect(ruleProblems(when('a', 'equals', ' '), ids)).toEqual([
      'conditional_rules needs a value to compare with',
    ]);
  });
});
