import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../shared/i18n/locales.ts';
import type { TemplateSnapshot } from './onboarding-events.ts';
import { COPY_WORDS, money, submissionCopy } from './submission-copy.ts';

const field = (id: string, type: string, label: string, sort_order: number, extra: object = {}) => ({
  id,
  type,
  label,
  sort_order,
  is_required: false,
  config: {},
  conditional_rules: null,
  translations: null,
  ...extra,
});

const snapshot = {
  name: 'Pack',
  description: null,
  steps: [
    {
      id: 's1',
      title: 'About you',
      sort_order: 1,
      is_optional: false,
      conditional_rules: null,
      translations: { 'de-DE': { title: 'Über Sie' } },
      fields: [
        field('h', 'heading', 'Welcome', 0),
        field('born', 'date', 'Born', 1),
        field('plan', 'dropdown', 'Plan', 2, {
          config: { options: [{ value: 'p', label: 'Pro' }] },
          translations: { 'de-DE': { label: 'Tarif', options: { p: 'Profi' } } },
        }),
        field('ok', 'checkbox', 'Newsletter', 3),
        field('skip', 'short_text', 'Unanswered', 4),
      ],
    },
    {
      id: 's2',
      title: 'Documents',
      sort_order: 2,
      is_optional: false,
      conditional_rules: null,
      translations: null,
      fields: [
        field('id', 'file_upload', 'ID', 1),
        field('sig', 'signature', 'Letter', 2),
        field('pay', 'payment', 'Deposit', 3),
      ],
    },
    {
      id: 's3',
      title: 'Empty',
      sort_order: 3,
      is_optional: true,
      conditional_rules: null,
      translations: null,
      fields: [field('n', 'short_text', 'Notes', 1)],
    },
  ],
} as unknown as TemplateSnapshot;

const facts = (locale: string) => ({
  snapshot,
  values: { born: '1990-06-23', plan: 'p', ok: true, skip: '' },
  files: [{ field_id: 'id', file_name: 'passport.pdf' }],
  signatures: [{ field_id: 'sig', signer_name: 'Ada', signed_at: '2026-11-28T10:00:00.000Z' }],
  payments: [
    {
      field_id: 'pay',
      amount_cents: 15000,
      currency: 'eur',
      paid_at: '2026-11-28T10:00:00.000Z',
      manual: false,
    },
  ],
  locale,
  timeZone: 'Europe/Berlin',
});

describe('the copy of a submission', () => {
  it('writes each answer as text in the client’s language, leaving out what has no answer', () => {
    const steps = submissionCopy(facts('de-DE'));
    expect(steps.map((step) => step.title)).toEqual(['Über Sie', 'Documents']);
    expect(steps[0]!.answers).toEqual([
      { label: 'Born', text: '23. Juni 1990' },
      { label: 'Tarif', text: 'Profi' },
      { label: 'Newsletter', text: 'Ja' },
    ]);
    expect(steps[1]!.answers.map((answer) => answer.text)).toEqual([
      'passport.pdf',
      'Unterschrieben von Ada am 28. November 2026 um 11:00',
      '150,00\u00a0€ bezahlt am 28. November 2026 um 11:00',
    ]);
  });

  it('reads dates the Japanese way for a ja-JP client, and falls back to en-US for another language', () => {
    expect(submissionCopy(facts('ja-JP'))[0]!.answers[0]!.text).toBe('1990年6月23日');
    expect(submissionCopy(facts('xx-XX'))[0]!.answers[0]!.text).toBe('June 23, 1990');
  });

  it('has its words in all nine languages, and amounts in a currency without minor units', () => {
    expect(Object.keys(COPY_WORDS).sort()).toEqual([...LOCALES].sort());
    expect(money(5000, 'jpy', 'ja-JP')).toBe('￥5,000');
  });
});
