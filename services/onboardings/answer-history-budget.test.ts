import { describe, expect, it } from 'vitest';
import { answerHistory, WORD_DIFF_BUDGET_MS } from './answer-history.ts';
import type { OnboardingEvent } from './onboarding-events.ts';
import { base, field, MEMBER, snapshot } from './decider/test-fixtures.ts';

/*
 * The word diffs of a review page keep to a budget (issue 26, point 1: no request holds
 * the event loop): long answers rewritten from end to end fall back to before and after.
 */

const FIELDS = 20;
const form = snapshot({
  fields1: Array.from({ length: FIELDS }, (_, n) => field(`f${n}`, 'long_text')),
  fields2: [],
});
let n = 0;
const event = (type: string, data: Record<string, unknown>) => ({
  id: `e${++n}`,
  event: { type, data: { ...base, step_id: 's1', ...data } } as unknown as OnboardingEvent,
});
const at = '2026-01-01T10:00:00.000Z';

/** 4,000 words that share almost nothing with those of another seed. */
const text = (seed: number) => Array.from({ length: 4000 }, (_, i) => `w${(i * seed) % 9973}`).join(' ');

describe('answer history diffs', () => {
  it('twenty long answers rewritten end to end: diffs within the budget, before and after past it', () => {
    const events = [];
    const opened = new Map<string, unknown>();
    for (let f = 0; f < FIELDS; f++) {
      const first = event('answer_saved', {
        field_id: `f${f}`,
        response_id: `r${f}`,
        value: 'x',
        saved_at: at,
      });
      opened.set(first.id, text(7));
      events.push(first);
    }
    events.push(event('response.submitted', { responses: [], progress_pct: 100, submitted_at: at }));
    for (let f = 0; f < FIELDS; f++) {
      events.push(
        event('response_rejected', {
          field_id: `f${f}`,
          response_id: null,
          member_id: MEMBER,
          reviewed_at: at,
          reason: 'Rewrite it',
        }),
      );
      const second = event('answer_saved', {
        field_id: `f${f}`,
        response_id: `r${f}`,
        value: 'x',
        saved_at: at,
      });
      opened.set(second.id, text(13));
      events.push(second);
    }
    events.push(event('response.submitted', { responses: [], progress_pct: 100, submitted_at: at }));
    const started = performance.now();
    const history = answerHistory(form, events, opened);
    const took = performance.now() - started;
    expect(history).toHaveLength(FIELDS);
    expect(history.every((answer) => answer.diff !== null)).toBe(true);
    // Without the budget this took seconds (half a second a field); the budget plus one
    // tokenisation of the texts past it is far below.
    expect(took).toBeLessThan(WORD_DIFF_BUDGET_MS * 10);
    expect(history.filter((answer) => answer.diff?.kind === 'values').length).toBeGreaterThan(FIELDS / 2);
    expect(history.at(-1)!.diff).toMatchObject({ kind: 'values', before: text(7), after: text(13) });
  });
});
