import { describe, expect, it } from 'vitest';
import { answerHistory } from './answer-history.ts';
import type { OnboardingEvent } from './onboarding-events.ts';
import { onboardingTimeline } from './onboarding-timeline.ts';
import { base, field, MEMBER, snapshot } from './decider/test-fixtures.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';

/** Versions, reviews and diffs of answers, and the timeline, from events (pure). */
const form = snapshot({
  fields1: [field('name', 'short_text'), field('age', 'number')],
  fields2: [],
});
let n = 0;
const at = (minute: number) => `2026-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
const saved = (fieldId: string, minute: number) => ({
  id: `e${++n}`,
  event: {
    type: 'answer_saved',
    data: {
      ...base,
      step_id: 's1',
      field_id: fieldId,
      response_id: `r-${fieldId}`,
      value: 'sealed',
      saved_at: at(minute),
    },
  } as OnboardingEvent,
});
const submitted = (minute: number) => ({
  id: `e${++n}`,
  event: {
    type: 'response.submitted',
    data: { ...base, step_id: 's1', responses: [], progress_pct: 100, submitted_at: at(minute) },
  } as OnboardingEvent,
});
const reviewed = (type: 'response_approved' | 'response_rejected', fieldId: string, minute: number) => ({
  id: `e${++n}`,
  event: {
    type,
    data: {
      ...base,
      step_id: 's1',
      field_id: fieldId,
      response_id: null,
      member_id: MEMBER,
      reviewed_at: at(minute),
      ...(type === 'response_rejected' ? { reason: 'Full name please' } : {}),
    },
  } as OnboardingEvent,
});

describe('answer history', () => {
  it('keeps each submitted version, the reviews with the version they saw, and a word diff since the last review', () => {
    const events = [
      saved('name', 1),
      saved('age', 1),
      submitted(2),
      reviewed('response_rejected', 'name', 3),
    ];
    const opened = new Map<string, unknown>([
      [events[0]!.id, 'Ada Lovelace'],
      [events[1]!.id, 36],
    ]);
    const change = saved('name', 4);
    opened.set(change.id, 'Ada King Lovelace');
    const after = answerHistory(form, [...events, change, submitted(5)], opened);
    const name = after.find((answer) => answer.field_id === 'name')!;
    expect(name.status).toBe('submitted');
    expect(name.versions.map((version) => version.value)).toEqual(['Ada Lovelace', 'Ada King Lovelace']);
    expect(name.reviews).toMatchObject([{ decision: 'rejected', reason: 'Full name please', version: 1 }]);
    expect(name.diff).toMatchObject({ kind: 'words', from: 1, to: 2 });
    expect(
      name.diff?.kind === 'words' && name.diff.parts.filter((part) => part.added).map((part) => part.value),
    ).toEqual(['King ']);
    const age = after.find((answer) => answer.field_id === 'age')!;
    expect(age).toMatchObject({ status: 'submitted', diff: null });
  });

  it('while the client changes a sent-back answer it stays rejected with its reason; other values diff as before and after', () => {
    const events = [saved('age', 1), submitted(2), reviewed('response_rejected', 'age', 3), saved('age', 4)];
    const opened = new Map<string, unknown>([
      [events[0]!.id, 36],
      [events[3]!.id, 37],
    ]);
    const during = answerHistory(form, events, opened)[0]!;
    expect(during).toMatchObject({ status: 'rejected', reason: 'Full name please', value: 37, diff: null });
    const resubmitted = answerHistory(form, [...events, submitted(5)], opened)[0]!;
    expect(resubmitted.diff).toEqual({ kind: 'values', from: 1, to: 2, before: 36, after: 37 });
  });
});

describe('onboarding timeline', () => {
  const recorded = (type: string, data: Record<string, unknown>, metadata: Record<string, unknown> = {}) =>
    ({
      id: `r${++n}`,
      type,
      data: { ...base, ...data },
      metadata,
      recordedAt: new Date(at(0)),
    }) as unknown as RecordedEvent;

  it('lists events without autosaves, with mails, deliveries and runs, oldest first, with who acted', () => {
    const entries = onboardingTimeline(
      [
        recorded('onboarding_created', { template_snapshot: form, created_at: at(1) }, { api_key_id: 'k1' }),
        recorded('answer_saved', { saved_at: at(3) }),
        recorded('response.submitted', { step_id: 's1', submitted_at: at(4) }),
        recorded(
          'response_rejected',
          { field_id: 'name', step_id: 's1', reason: 'No', reviewed_at: at(6) },
          { actor_member_id: MEMBER },
        ),
        recorded('onboarding_reopened', { reopened_at: at(8) }),
      ],
      {
        mails: [{ kind: 'invite', status: 'sent', created_at: at(2), sent_at: at(2) }],
        deliveries: [
          {
            event_type: 'response.submitted',
            state: 'delivered',
            attempts: 1,
            last_status_code: 200,
            created_at: at(4),
            updated_at: at(5),
          },
        ],
        runs: [
          {
            rule_name: 'Thank you',
            trigger: 'onboarding.completed',
            state: 'succeeded',
            queued_at: at(7),
            finished_at: null,
          },
        ],
      },
    );
    expect(entries.map((entry) => entry.kind)).toEqual([
      'onboarding_created',
      'mail',
      'response.submitted',
      'hook_delivery',
      'response_rejected',
      'automation_run',
      'onboarding_reopened',
    ]);
    expect(entries[0]!.actor).toEqual({ type: 'api_key', api_key_id: 'k1' });
    expect(entries[2]!.actor).toEqual({ type: 'client' });
    expect(entries[4]).toMatchObject({
      actor: { type: 'member', member_id: MEMBER },
      detail: { field: 'Field name', reason: 'No' },
    });
  });
});
