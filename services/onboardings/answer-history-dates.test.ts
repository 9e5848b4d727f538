import { describe, expect, it } from 'vitest';
import { answerHistory } from './answer-history.ts';
import type { OnboardingEvent } from './onboarding-events.ts';
import { base, field, MEMBER, snapshot } from './decider/test-fixtures.ts';

/** A date's diff compares dates, not characters (pure). */
const form = snapshot({ fields1: [field('born', 'date'), field('city', 'short_text')], fields2: [] });
const at = (minute: number) => `2026-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
let n = 0;
const event = (type: string, data: Record<string, unknown>) => ({
  id: `e${++n}`,
  event: { type, data: { ...base, step_id: 's1', ...data } } as OnboardingEvent,
});
const saved = (fieldId: string, minute: number) =>
  event('answer_saved', {
    field_id: fieldId,
    response_id: `r-${fieldId}`,
    value: 'sealed',
    saved_at: at(minute),
  });
const submitted = (minute: number) =>
  event('response.submitted', { responses: [], progress_pct: 100, submitted_at: at(minute) });
const rejected = (fieldId: string, minute: number) =>
  event('response_rejected', {
    field_id: fieldId,
    response_id: null,
    member_id: MEMBER,
    reviewed_at: at(minute),
    reason: 'Please check',
  });

describe('answer history of a date', () => {
  it('diffs a changed date as the date before and after, and text still word by word', () => {
    const first = [
      saved('born', 1),
      saved('city', 1),
      submitted(2),
      rejected('born', 3),
      rejected('city', 3),
    ];
    const second = [saved('born', 4), saved('city', 4), submitted(5)];
    const opened = new Map<string, unknown>([
      [first[0]!.id, '1842-03-15'],
      [first[1]!.id, 'Old Town'],
      [second[0]!.id, '1843-07-01'],
      [second[1]!.id, 'New Town'],
    ]);
    const answers = answerHistory(form, [...first, ...second], opened);
    const born = answers.find((answer) => answer.field_id === 'born')!;
    expect(born.diff).toEqual({ kind: 'values', from: 1, to: 2, before: '1842-03-15', after: '1843-07-01' });
    const city = answers.find((answer) => answer.field_id === 'city')!;
    expect(city.diff).toMatchObject({ kind: 'words', from: 1, to: 2 });
  });
});
