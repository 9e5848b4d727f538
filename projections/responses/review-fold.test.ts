import { describe, expect, it } from 'vitest';
import { recorded } from '../fold-test-events.ts';
import { foldResponse, responsesBatch, type ResponsesBatch } from './fold.ts';

/**
 * The responses fold through a review journey: reviews set the status and
 * rejection_reason; the client's first change of a sent-back answer is a new response of
 * the field while the reviewed version stays (current false) with its reason; the
 * resubmission returns the new version to submitted; approved answers stay approved.
 */
const ONBOARDING = 'B1B2C3D4-0000-4000-8000-000000000002';
const CLIENT = 'C1B2C3D4-0000-4000-8000-000000000002';
const created = recorded(
  'onboarding_created',
  { onboarding_id: ONBOARDING, team_id: 'team-1', client_id: CLIENT },
  1n,
);
const answer = (fieldId: string, responseId: string, value: string, position: bigint) =>
  recorded(
    'answer_saved',
    {
      onboarding_id: ONBOARDING,
      response_id: responseId,
      step_id: 'step-1',
      field_id: fieldId,
      value,
      saved_at: `2026-01-01T00:00:${String(position).padStart(2, '0')}Z`,
    },
    position,
  );
const submitted = (position: bigint) =>
  recorded(
    'response.submitted',
    { onboarding_id: ONBOARDING, step_id: 'step-1', submitted_at: `2026-01-02T00:00:${position}Z` },
    position,
  );
const reviewed = (
  type: 'response_approved' | 'response_rejected' | 'response_changes_requested',
  fieldId: string,
  position: bigint,
  reason?: string,
) =>
  recorded(
    type,
    {
      onboarding_id: ONBOARDING,
      step_id: 'step-1',
      field_id: fieldId,
      reviewed_at: `2026-01-03T00:00:${position}Z`,
      ...(reason ? { reason } : {}),
    },
    position,
  );
const fold = (...events: ReturnType<typeof recorded>[]) =>
  events.reduce(foldResponse, responsesBatch([], [], new Map()));
const current = (batch: ResponsesBatch, fieldId: string) =>
  batch.rows.get(ONBOARDING.toLowerCase())?.get(fieldId);
const earlier = (batch: ResponsesBatch) => batch.earlier.get(ONBOARDING.toLowerCase()) ?? [];

const submittedBoth = [created, answer('a', 'r-a', 'Ada', 2n), answer('b', 'r-b', 'Bob', 3n), submitted(4n)];

describe('responses fold: reviews', () => {
  it('approves, rejects with a reason and keeps the note of a request for changes as rejection_reason', () => {
    const batch = fold(
      ...submittedBoth,
      reviewed('response_approved', 'a', 5n),
      reviewed('response_rejected', 'b', 6n, 'Blurred'),
    );
    expect(current(batch, 'a')).toMatchObject({ status: 'approved', rejection_reason: null });
    expect(current(batch, 'b')).toMatchObject({ status: 'rejected', rejection_reason: 'Blurred' });
    const note = fold(...submittedBoth, reviewed('response_changes_requested', 'b', 5n, 'Add the suffix'));
    expect(current(note, 'b')).toMatchObject({
      status: 'changes_requested',
      rejection_reason: 'Add the suffix',
    });
  });

  it('keeps the rejected version with its reason when the client changes it; the resubmission submits the new one only', () => {
    const batch = fold(
      ...submittedBoth,
      reviewed('response_approved', 'a', 5n),
      reviewed('response_rejected', 'b', 6n, 'Blurred'),
      answer('b', 'r-b2', 'Bobby', 7n),
      submitted(8n),
    );
    expect(earlier(batch)).toEqual([
      expect.objectContaining({
        id: 'r-b',
        value: '"Bob"',
        status: 'rejected',
        rejection_reason: 'Blurred',
        current: false,
      }),
    ]);
    expect(current(batch, 'b')).toMatchObject({
      id: 'r-b2',
      value: '"Bobby"',
      status: 'submitted',
      rejection_reason: null,
      current: true,
    });
    expect(current(batch, 'a')).toMatchObject({ id: 'r-a', status: 'approved' });
  });

  it('a sent-back answer resubmitted unchanged returns to submitted and its reason is cleared', () => {
    const batch = fold(
      ...submittedBoth,
      reviewed('response_changes_requested', 'b', 5n, 'Check it'),
      submitted(6n),
    );
    expect(current(batch, 'b')).toMatchObject({ id: 'r-b', status: 'submitted', rejection_reason: null });
    expect(earlier(batch)).toEqual([]);
  });

  it('an erasure nulls the earlier versions too', () => {
    const batch = fold(
      ...submittedBoth,
      reviewed('response_rejected', 'b', 5n, 'Blurred'),
      answer('b', 'r-b2', 'Bobby', 6n),
      recorded('client.erased', { client_id: CLIENT, erased_at: '2026-01-09T00:00:00Z' }, 7n),
    );
    expect(earlier(batch)[0]?.value).toBeNull();
    expect(current(batch, 'b')?.value).toBeNull();
  });

  it('loads earlier versions apart from the current one of the field', () => {
    const row = (id: string, isCurrent: boolean) => ({
      id,
      onboarding_id: ONBOARDING,
      team_id: 'team-1',
      client_id: CLIENT,
      step_id: 'step-1',
      field_id: 'b',
      kind: 'answer',
      value: '"x"',
      status: isCurrent ? 'draft' : 'rejected',
      rejection_reason: isCurrent ? null : 'Blurred',
      created_at: 'now',
      updated_at: 'now',
      position: '1',
      current: isCurrent,
    });
    const batch = responsesBatch([], [row('old', false), row('new', true)], new Map());
    expect(current(batch, 'b')?.id).toBe('new');
    expect(earlier(batch).map((r) => r.id)).toEqual(['old']);
  });
});
