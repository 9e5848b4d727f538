import { describe, expect, it } from 'vitest';
import type { PortalOnboarding, PortalStep } from './api.ts';
import { formSteps, stepProblems, visibleSteps } from './form-model.ts';

/** The client form applies the conditional rules as the server does (../../../templates/contract/conditional-rules.ts). */

const showWhen = (field_id: string, operator: string, value?: string) => ({
  show_when: { field_id, operator, value },
});

const snapshotSteps: PortalStep[] = [
  {
    id: 's1',
    title: 'About you',
    sort_order: 0,
    is_optional: false,
    fields: [
      {
        id: 'kind',
        type: 'single_choice',
        label: 'Kind',
        sort_order: 0,
        is_required: true,
        config: { options: ['person', 'business'] },
      },
      {
        id: 'company',
        type: 'short_text',
        label: 'Company',
        sort_order: 1,
        is_required: true,
        config: {},
        conditional_rules: showWhen('kind', 'equals', 'business'),
      },
    ],
  },
  {
    id: 's2',
    title: 'Business papers',
    sort_order: 1,
    is_optional: false,
    conditional_rules: showWhen('kind', 'equals', 'business'),
    fields: [
      { id: 'papers', type: 'file_upload', label: 'Papers', sort_order: 0, is_required: true, config: {} },
    ],
  },
  {
    id: 's3',
    title: 'Sign',
    sort_order: 2,
    is_optional: false,
    conditional_rules: { an_older_rule: true },
    fields: [
      {
        id: 'note',
        type: 'long_text',
        label: 'Note',
        sort_order: 0,
        is_required: false,
        config: {},
        conditional_rules: showWhen('papers', 'is_not_empty'),
      },
    ],
  },
];

const onboarding = (over: Partial<PortalOnboarding> = {}): PortalOnboarding => ({
  id: 'o1',
  status: 'in_progress',
  progress_pct: 0,
  due_date: null,
  template_snapshot: { steps: snapshotSteps },
  responses: [],
  files: [],
  signatures: [],
  submitted_step_ids: [],
  paid_field_ids: [],
  failed_payment_field_ids: [],
  reviews: [],
  document_ready: false,
  ...over,
});

const ids = (steps: ReturnType<typeof visibleSteps>) =>
  steps.map((step) => [step.id, step.fields.map((f) => f.id)]);

describe('visibleSteps', () => {
  const steps = formSteps(snapshotSteps, 'en-US');

  it('hides the conditional field and step until the answer holds; unknown rules show', () => {
    expect(ids(visibleSteps(steps, new Map(), onboarding()))).toEqual([
      ['s1', ['kind']],
      ['s3', []],
    ]);
    expect(ids(visibleSteps(steps, new Map([['kind', 'business']]), onboarding()))).toEqual([
      ['s1', ['kind', 'company']],
      ['s2', ['papers']],
      ['s3', []],
    ]);
  });

  it('a hidden required field is not required by the step check', () => {
    const person = visibleSteps(steps, new Map([['kind', 'person']]), onboarding());
    expect(stepProblems(person[0]!, new Map([['kind', 'person']]), onboarding()).size).toBe(0);
    const business = visibleSteps(steps, new Map([['kind', 'business']]), onboarding());
    expect([...stepProblems(business[0]!, new Map([['kind', 'business']]), onboarding()).keys()]).toEqual([
      'company',
    ]);
  });

  it('an uploaded file counts as an answer for the rules', () => {
    const withFile = onboarding({
      files: [
        {
          id: 'f1',
          field_id: 'papers',
          file_name: 'a.pdf',
          content_type: 'application/pdf',
          size_bytes: 1,
        } as never,
      ],
    });
    const shown = visibleSteps(steps, new Map([['kind', 'business']]), withFile);
    expect(ids(shown).at(-1)).toEqual(['s3', ['note']]);
  });
});
