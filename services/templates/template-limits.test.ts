import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../shared/commands/decider.ts';
import { ruleProblems } from './contract/conditional-rules.ts';
import { templateDecider } from './template-decider.ts';
import type { TemplateContent, TemplateField, TemplateStep } from './template-events.ts';
import { TEMPLATE_LIMITS, templateLimitProblems } from './template-limits.ts';

/*
 * The caps of a template save (./template-limits.ts) and the linear rule check of the
 * decider: the rule check equals the quadratic one it replaced on every template, and the
 * caps refuse a 20,000-field body in a few milliseconds.
 */

const field = (n: number, extra: Record<string, unknown> = {}) => ({
  type: 'short_text',
  label: `Field ${n}`,
  sort_order: n,
  ...extra,
});

const body = (steps: number, fieldsPerStep: number, fieldExtra: Record<string, unknown> = {}) => ({
  name: 'Intake',
  steps: Array.from({ length: steps }, (_, s) => ({
    title: `Step ${s}`,
    sort_order: s,
    fields: Array.from({ length: fieldsPerStep }, (_, f) => field(f, fieldExtra)),
  })),
});

describe('template caps', () => {
  it('accepts a template at every cap', () => {
    // 50 steps: the first with 200 fields, forty with 20, nine empty: 1,000 fields.
    const atCaps = body(TEMPLATE_LIMITS.steps, 20);
    const first = atCaps.steps[0]!;
    first.fields = Array.from({ length: TEMPLATE_LIMITS.fieldsPerStep }, (_, f) => field(f));
    for (const step of atCaps.steps.slice(41)) step.fields = [];
    const locales = Object.fromEntries(
      Array.from({ length: TEMPLATE_LIMITS.locales }, (_, n) => [`l${n}-XX`, { label: 'x' }]),
    );
    Object.assign(first.fields[0]!, {
      type: 'dropdown',
      config: { options: Array.from({ length: TEMPLATE_LIMITS.listItems }, (_, n) => `o${n}`) },
      translations: locales,
      label: 'x'.repeat(TEMPLATE_LIMITS.textLength),
    });
    Object.assign(first.fields[1]!, { config: { a: { b: { c: { d: 'deep' } } } } });
    expect(atCaps.steps.flatMap((step) => step.fields)).toHaveLength(TEMPLATE_LIMITS.fields);
    expect(templateLimitProblems(atCaps)).toEqual([]);
  });

  it('names each cap one over it', () => {
    const messages = (value: unknown) => templateLimitProblems(value).map((problem) => problem.message);
    expect(messages(body(51, 1))).toEqual(['A template holds at most 50 steps (this one has 51)']);
    expect(messages(body(1, 201))).toEqual(['A step holds at most 200 fields (step 1 has 201)']);
    expect(messages(body(6, 167))).toEqual([
      'A template holds at most 1,000 fields in all (this one has 1,002)',
    ]);
    expect(messages(body(1, 1, { config: { options: Array(501).fill('o') } }))).toEqual([
      'A list holds at most 500 items (this one has 501)',
    ]);
    expect(messages(body(1, 1, { label: 'x'.repeat(20_001) }))).toEqual([
      'A text holds at most 20,000 characters',
    ]);
    expect(messages(body(1, 1, { config: { a: { b: { c: { d: { e: {} } } } } } }))).toEqual([
      'config nests at most 5 levels of lists and objects',
    ]);
    const tenLocales = Object.fromEntries(Array.from({ length: 10 }, (_, n) => [`l${n}`, {}]));
    expect(messages(body(1, 1, { translations: tenLocales }))).toEqual([
      'translations hold at most 9 languages (these have 10)',
    ]);
    // Nine languages on each of two fields, ten in all.
    const two = body(1, 2);
    two.steps[0]!.fields[0]!['translations' as never] = Object.fromEntries(
      Array.from({ length: 9 }, (_, n) => [`l${n}`, {}]),
    ) as never;
    two.steps[0]!.fields[1]!['translations' as never] = { l9: {} } as never;
    expect(messages(two)).toEqual(['A template is translated into at most 9 languages (this one uses 10)']);
    const keys = Object.fromEntries(Array.from({ length: 201 }, (_, n) => [`k${n}`, 1]));
    expect(messages({ name: 'x', settings: keys })).toEqual([
      'An object holds at most 200 keys (this one has 201)',
    ]);
  });

  it('leaves bodies of another shape to the schema', () => {
    for (const value of [null, 'x', 42, [], { steps: 'no' }, { steps: [1, null, { fields: 'x' }] }]) {
      expect(templateLimitProblems(value)).toEqual([]);
    }
  });

  it('refuses 20,000 and 100,000 fields in a few milliseconds, before reading any field', () => {
    for (const [steps, perStep] of [
      [1, 20_000],
      [50, 2_000],
      [100, 1_000],
    ] as const) {
      const huge = body(steps, perStep);
      const started = performance.now();
      const problems = templateLimitProblems(huge);
      expect(performance.now() - started).toBeLessThan(20);
      expect(problems.length).toBeGreaterThan(0);
    }
  });
});

// ---------------------------------------------------------------------------------------
// The linear rule check equals the quadratic one it replaced
// ---------------------------------------------------------------------------------------

/** The decider's rule check before: a set of every other field id, built for every field. */
function quadraticRuleProblems(content: TemplateContent) {
  const ids = content.steps.flatMap((step) => step.fields.map((f) => f.id));
  const others = (id?: string) => new Set(ids.filter((candidate) => candidate !== id));
  return content.steps.flatMap((step, stepIndex) => [
    ...ruleProblems(step.conditional_rules, others()).map((message) => ({
      path: `steps[${stepIndex}]`,
      message,
    })),
    ...step.fields.flatMap((f, fieldIndex) =>
      ruleProblems(f.conditional_rules, others(f.id)).map((message) => ({
        path: `steps[${stepIndex}].fields[${fieldIndex}]`,
        message,
      })),
    ),
  ]);
}

const ID_POOL = ['a', 'b', 'c', 'd', 'e', 'f'].map((c) => `${c.repeat(8)}-0000-4000-8000-000000000000`);

const rule = fc.oneof(
  fc.constant(null),
  fc.record({
    show_when: fc.record(
      {
        field_id: fc.oneof(fc.constantFrom(...ID_POOL), fc.constant('')),
        operator: fc.constantFrom('equals', 'contains', 'is_empty', 'is_not_empty', 'matches'),
        value: fc.oneof(fc.string({ maxLength: 3 }), fc.constant(' '), fc.constant('v'.repeat(501))),
      },
      { requiredKeys: ['field_id', 'operator'] },
    ),
  }),
  fc.record({ show_when: fc.constant({ field_id: ID_POOL[0], operator: 'is_empty' }), extra: fc.boolean() }),
  fc.jsonValue({ maxDepth: 2 }),
);

const fieldArbitrary: fc.Arbitrary<TemplateField> = fc.record({
  id: fc.constantFrom(...ID_POOL),
  type: fc.constant('short_text'),
  label: fc.constant('x'),
  sort_order: fc.constant(1),
  is_required: fc.constant(false),
  config: fc.constant({}),
  conditional_rules: rule as fc.Arbitrary<TemplateField['conditional_rules']>,
  translations: fc.constant(null),
});

const contentArbitrary: fc.Arbitrary<TemplateContent> = fc
  .array(
    fc.record({
      id: fc.uuid(),
      title: fc.constant('s'),
      sort_order: fc.constant(1),
      is_optional: fc.constant(false),
      conditional_rules: rule as fc.Arbitrary<TemplateStep['conditional_rules']>,
      translations: fc.constant(null),
      fields: fc.array(fieldArbitrary, { maxLength: 5 }),
    }),
    { maxLength: 4 },
  )
  .map((steps) => ({
    name: 'T',
    description: null,
    vertical: null,
    settings: {},
    translations: null,
    steps,
  }));

/** What the decider's save says about rules: the problems it lists, or none. */
function deciderRuleProblems(content: TemplateContent) {
  try {
    templateDecider.decide(
      {
        type: 'CreateTemplate',
        data: {
          template_id: '99999999-9999-4999-8999-999999999999',
          team_id: 't',
          content,
          check_rules: true,
        },
        metadata: { now: new Date('2030-01-01T00:00:00Z') },
      },
      { status: 'none' },
    );
    return [];
  } catch (error) {
    if (error instanceof DomainError && error.code === 'invalid_body') {
      return (error.details as { field_problems: unknown[] }).field_problems;
    }
    if (error instanceof DomainError && error.code === 'duplicate_id') return [];
    throw error;
  }
}

describe('the linear rule check', () => {
  it('property: refuses exactly what the quadratic check refused, with the same problems', () => {
    fc.assert(
      fc.property(contentArbitrary, (content) => {
        expect(deciderRuleProblems(content)).toEqual(quadraticRuleProblems(content));
      }),
      { numRuns: 500 },
    );
  });

  it('checks 1,000 fields that each name another in a few milliseconds', () => {
    const ids = Array.from(
      { length: 1000 },
      (_, n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    );
    const content: TemplateContent = {
      name: 'T',
      description: null,
      vertical: null,
      settings: {},
      translations: null,
      steps: Array.from({ length: 5 }, (_, s) => ({
        id: `10000000-0000-4000-8000-${String(s).padStart(12, '0')}`,
        title: 's',
        sort_order: s,
        is_optional: false,
        conditional_rules: null,
        translations: null,
        fields: ids.slice(s * 200, s * 200 + 200).map((id, n) => ({
          id,
          type: 'short_text',
          label: 'x',
          sort_order: n,
          is_required: false,
          config: {},
          conditional_rules: {
            show_when: { field_id: ids[(s * 200 + n + 1) % 1000]!, operator: 'is_not_empty' },
          },
          translations: null,
        })),
      })),
    };
    const started = performance.now();
    expect(deciderRuleProblems(content)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
