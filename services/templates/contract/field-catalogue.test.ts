import { describe, expect, it } from 'vitest';
import {
  answerProblem,
  answerShapeProblem,
  fieldConfigProblems,
  fileConfig,
  FIELD_TYPES,
  localizeField,
  type CatalogueField,
} from './field-catalogue.ts';

const field = (type: string, config: Record<string, unknown> = {}, is_required = true): CatalogueField => ({
  id: 'f1',
  type,
  label: 'Field',
  is_required,
  config,
});

const choices = { options: [{ value: 'a', label: 'A' }, 'b'] };

describe('template checks', () => {
  it('accepts every catalogue type with a sensible config', () => {
    const configs: Record<string, Record<string, unknown>> = {
      single_choice: choices,
      multiple_choice: choices,
      dropdown: choices,
      payment: { amount_cents: 500, currency: 'EUR' },
      signature: { agreement_text: 'I agree', is_sample_text: false },
    };
    for (const type of FIELD_TYPES) {
      const required = type !== 'heading' && type !== 'paragraph';
      expect(
        fieldConfigProblems({ ...field(type, configs[type] ?? {}), is_required: required }),
        type,
      ).toEqual([]);
    }
  });

  it('names what is wrong', () => {
    expect(fieldConfigProblems(field('text'))[0]).toMatch(/not a field type/);
    expect(fieldConfigProblems(field('dropdown'))).toEqual(['config.options needs at least one option']);
    expect(fieldConfigProblems(field('dropdown', { options: ['a', 'a'] }))).toEqual([
      'config.options[1] repeats the value "a"',
    ]);
    expect(fieldConfigProblems(field('heading'))).toEqual(['a heading cannot be required']);
    expect(fieldConfigProblems(field('short_text', { min_length: 9, max_length: 3 }))).toEqual([
      'config.min_length must not exceed config.max_length',
    ]);
    expect(fieldConfigProblems(field('file_upload', { accept: ['text/html'] }))[0]).toMatch(/text\/html/);
    expect(fieldConfigProblems(field('payment', { amount_cents: -1, currency: 'euro' }))).toHaveLength(2);
    expect(fieldConfigProblems(field('payment', { amount_cents: 500, currency: 'eur' }))).toEqual([]);
  });
});

describe('answer checks', () => {
  it('lets a draft through that only a submit refuses', () => {
    const email = field('email');
    expect(answerShapeProblem(email, 'ann@')).toBeNull();
    expect(answerProblem(email, 'ann@')).toEqual({ code: 'invalid_email' });
    expect(answerProblem(email, '')).toEqual({ code: 'required' });
    expect(answerProblem(email, 'ann@example.com')).toBeNull();
  });

  it('refuses a wrong type or an unknown option even as a draft', () => {
    expect(answerShapeProblem(field('short_text'), 5)).toEqual({
      code: 'wrong_type',
      params: { expected: 'text' },
    });
    expect(answerShapeProblem(field('short_text', { max_length: 3 }), 'abcd')).toEqual({
      code: 'too_long',
      params: { max: 3 },
    });
    expect(answerShapeProblem(field('dropdown', choices), 'z')).toEqual({ code: 'not_an_option' });
    expect(answerShapeProblem(field('multiple_choice', choices), ['a', 'a'])).toEqual({
      code: 'not_an_option',
    });
    expect(answerShapeProblem(field('payment'), 1)).toEqual({ code: 'not_answerable' });
    expect(answerShapeProblem(field('signature'), { drawing: 'M1 2L3 4' })).toBeNull();
    expect(answerShapeProblem(field('signature'), { drawing: '<script>' })?.code).toBe('wrong_type');
  });

  it('checks numbers, dates, phones, choices and consent', () => {
    expect(answerProblem(field('number', { min: 1, max: 9 }), 10)).toEqual({
      code: 'too_large',
      params: { max: 9 },
    });
    expect(answerProblem(field('date'), '2026-02-30')).toEqual({ code: 'invalid_date' });
    expect(answerProblem(field('date', { min_date: '2026-01-01' }), '2025-12-31')?.code).toBe('too_early');
    expect(answerProblem(field('phone'), '+49 (30) 1234-567')).toBeNull();
    expect(answerProblem(field('phone'), 'call me')).toEqual({ code: 'invalid_phone' });
    expect(answerProblem(field('multiple_choice', { ...choices, max_selected: 1 }), ['a', 'b'])?.code).toBe(
      'too_many_choices',
    );
    expect(answerProblem(field('checkbox'), false)).toEqual({ code: 'must_be_checked' });
    expect(answerProblem(field('checkbox', {}, false), false)).toBeNull();
    expect(answerProblem(field('file_upload'), null, false)).toEqual({ code: 'required' });
    expect(answerProblem(field('file_upload'), null, true)).toBeNull();
  });
});

describe('files and translations', () => {
  it('defaults a file field to documents and images, five files of 10 MiB', () => {
    expect(fileConfig(field('file_upload'))).toMatchObject({
      max_files: 5,
      max_size_bytes: 10 * 1024 * 1024,
    });
    expect(fileConfig(field('file_upload', { accept: ['application/pdf'], max_size_mb: 2 }))).toEqual({
      accept: ['application/pdf'],
      max_files: 5,
      max_size_bytes: 2 * 1024 * 1024,
    });
  });

  it('uses the template translation where it has one', () => {
    const translated = localizeField(
      {
        ...field('dropdown', { ...choices, help_text: 'Pick one' }),
        translations: { 'de-DE': { label: 'Feld', options: { a: 'Ä' } } },
      },
      'de-DE',
    );
    expect(translated.label).toBe('Feld');
    expect(translated.config).toMatchObject({
      help_text: 'Pick one',
      options: [
        { value: 'a', label: 'Ä' },
        { value: 'b', label: 'b' },
      ],
    });
  });
});

describe('the sample form', () => {
  it('holds every field type, each valid', async () => {
    const { SAMPLE_FORM } = await import('../sample-form.ts');
    const fields = SAMPLE_FORM.steps.flatMap((step) => step.fields);
    expect(new Set(fields.map((each) => each.type))).toEqual(new Set(FIELD_TYPES));
    for (const each of fields) {
      const problems = fieldConfigProblems({
        type: each.type,
        label: each.label,
        is_required: each.is_required === true,
        config: each.config ?? null,
      });
      expect(problems, each.label).toEqual([]);
    }
  });
});

describe('config.prefill', () => {
  const problems = (type: string, prefill: unknown) =>
    fieldConfigProblems({ type, label: 'x', is_required: false, config: { prefill } });
  it("takes the client's name or email where the type holds it, and says what else it takes", () => {
    expect(problems('short_text', 'client_name')).toEqual([]);
    expect(problems('email', 'client_email')).toEqual([]);
    expect(problems('email', 'client_name')).toEqual(['config.prefill must be one of client_email']);
    expect(problems('number', 'client_name')).toEqual(['config.prefill is not taken by a number field']);
  });
});
