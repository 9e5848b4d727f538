import { describe, expect, it } from 'vitest';
import type { PortalOnboarding } from './api.ts';
import {
  formSteps,
  latestAnswers,
  resumeStep,
  stepHasAnswer,
  stepProblems,
  submitOrder,
} from './form-model.ts';

const onboarding = (over: Partial<PortalOnboarding> = {}): PortalOnboarding => ({
  id: 'o1',
  status: 'in_progress',
  progress_pct: 0,
  due_date: null,
  template_snapshot: { steps: [] },
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

describe('submitOrder', () => {
  const steps = [
    { id: 'about', is_optional: false },
    { id: 'extras', is_optional: true },
    { id: 'contract', is_optional: false },
    { id: 'uploads', is_optional: true },
    { id: 'empty', is_optional: true },
  ];
  const answered = new Set(['extras', 'uploads', 'about']);

  it('sends answered optional steps first, then required steps in sort_order', () => {
    expect(submitOrder(steps, (id) => answered.has(id), [])).toEqual([
      'extras',
      'uploads',
      'about',
      'contract',
    ]);
  });

  it('skips steps already submitted', () => {
    expect(submitOrder(steps, (id) => answered.has(id), ['about', 'uploads'])).toEqual([
      'extras',
      'contract',
    ]);
  });
});

describe('the form model', () => {
  const steps = formSteps(
    [
      {
        id: 's2',
        title: 'Files',
        sort_order: 2,
        is_optional: true,
        fields: [
          { id: 'doc', type: 'file_upload', label: 'ID', sort_order: 1, is_required: false, config: {} },
        ],
      },
      {
        id: 's1',
        title: 'About you',
        sort_order: 1,
        is_optional: false,
        translations: { 'de-DE': { title: 'Über Sie' } },
        fields: [
          { id: 'email', type: 'email', label: 'Email', sort_order: 2, is_required: true, config: {} },
          {
            id: 'name',
            type: 'short_text',
            label: 'Name',
            sort_order: 1,
            is_required: true,
            config: {},
            translations: { 'de-DE': { label: 'Name (de)' } },
          },
        ],
      },
    ],
    'de-DE',
  );

  it('orders steps and fields and uses the translations', () => {
    expect(steps.map((step) => step.title)).toEqual(['Über Sie', 'Files']);
    expect(steps[0]!.fields.map((field) => [field.id, field.label, field.step_id])).toEqual([
      ['name', 'Name (de)', 's1'],
      ['email', 'Email', 's1'],
    ]);
  });

  it('takes the latest response of each field', () => {
    const answers = latestAnswers([
      {
        id: '1',
        field_id: 'name',
        value: 'Ad',
        status: 'draft',
        rejection_reason: null,
        created_at: '2026-01-01T10:00:00Z',
      },
      {
        id: '2',
        field_id: 'name',
        value: 'Ada',
        status: 'draft',
        rejection_reason: null,
        created_at: '2026-01-01T10:00:05Z',
      },
    ]);
    expect(answers.get('name')).toBe('Ada');
  });

  it('checks a step with the catalogue rules and sees files as answers', () => {
    const answers = new Map<string, unknown>([['email', 'nope']]);
    expect([...stepProblems(steps[0]!, answers, onboarding())]).toEqual([
      ['name', { code: 'required' }],
      ['email', { code: 'invalid_email' }],
    ]);
    expect(stepHasAnswer(steps[1]!, answers, onboarding())).toBe(false);
    const withFile = onboarding({
      files: [
        {
          id: 'f',
          field_id: 'doc',
          file_name: 'a.pdf',
          content_type: 'application/pdf',
          size_bytes: 1,
          uploaded_at: '',
        },
      ],
    });
    expect(stepHasAnswer(steps[1]!, answers, withFile)).toBe(true);
  });
});

describe('resumeStep: where a returning client picks up', () => {
  const field = (id: string, is_required: boolean) => ({
    id,
    type: 'short_text',
    label: id,
    sort_order: 1,
    is_required,
    config: {},
  });
  const steps = formSteps(
    [
      { id: 'a', title: 'A', sort_order: 1, is_optional: false, fields: [field('a1', true)] },
      { id: 'b', title: 'B', sort_order: 2, is_optional: false, fields: [field('b1', true)] },
      { id: 'c', title: 'C', sort_order: 3, is_optional: true, fields: [field('c1', false)] },
      { id: 'd', title: 'D', sort_order: 4, is_optional: false, fields: [field('d1', true)] },
    ],
    'en-US',
  );
  const with_ = (...ids: string[]) => new Map<string, unknown>(ids.map((id) => [id, 'x']));

  it('a fresh form opens at its first step', () => {
    expect(resumeStep(steps, with_(), onboarding())).toBe(0);
  });

  it('steps 1 and 2 done: the first step that still needs the client', () => {
    expect(resumeStep(steps, with_('a1', 'b1'), onboarding())).toBe(3);
    expect(resumeStep(steps, with_('a1'), onboarding())).toBe(1);
    expect(resumeStep(steps, with_('b1'), onboarding())).toBe(0);
  });

  it('every required answer in: the optional step not touched yet, else the Review', () => {
    expect(resumeStep(steps, with_('a1', 'b1', 'd1'), onboarding())).toBe(2);
    expect(resumeStep(steps, with_('a1', 'b1', 'd1'), onboarding({ submitted_step_ids: ['c'] }))).toBe(4);
    expect(resumeStep(steps, with_('a1', 'b1', 'c1', 'd1'), onboarding())).toBe(4);
  });
});

describe('a required payment', () => {
  const [step] = formSteps(
    [
      {
        id: 'pay',
        title: 'Payment',
        sort_order: 1,
        is_optional: false,
        fields: [
          {
            id: 'deposit',
            type: 'payment',
            label: 'Deposit',
            sort_order: 1,
            is_required: true,
            config: { amount_cents: 15000, currency: 'EUR' },
          },
        ],
      },
    ],
    'en-US',
  );

  it('asks to be paid, not answered, until paid_field_ids has it', () => {
    expect(stepProblems(step!, new Map(), onboarding())).toEqual(
      new Map([['deposit', { code: 'payment_required' }]]),
    );
    expect(stepProblems(step!, new Map(), onboarding({ paid_field_ids: ['deposit'] }))).toEqual(new Map());
  });
});
