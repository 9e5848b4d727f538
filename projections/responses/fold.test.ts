import { describe, expect, it } from 'vitest';
import { recorded } from '../fold-test-events.ts';
import { foldResponse, responsesBatch, RESPONSES_HANDLED } from './fold.ts';

const ONBOARDING = 'B1B2C3D4-0000-4000-8000-000000000001';
const CLIENT = 'C1B2C3D4-0000-4000-8000-000000000001';

const created = recorded(
  'onboarding_created',
  { onboarding_id: ONBOARDING, team_id: 'team-1', client_id: CLIENT },
  1n,
);
const answer = (value: unknown, position: bigint) =>
  recorded(
    'answer_saved',
    {
      onboarding_id: ONBOARDING,
      response_id: 'response-1',
      step_id: 'step-1',
      field_id: 'field-1',
      value,
      saved_at: `2026-01-0${position}T00:00:00Z`,
    },
    position,
  );
const fold = (...events: ReturnType<typeof recorded>[]) =>
  events.reduce(foldResponse, responsesBatch([], [], new Map()));
const responseOf = (batch: ReturnType<typeof fold>) =>
  batch.rows.get(ONBOARDING.toLowerCase())?.get('field-1');

describe('responses fold', () => {
  it('saves an answer of a known onboarding as a draft, and a later answer replaces it', () => {
    const batch = fold(created, answer('first', 2n), answer('second', 3n));
    expect(responseOf(batch)).toMatchObject({ value: '"second"', status: 'draft', client_id: CLIENT });
  });

  it('submits the answers of the step', () => {
    const submitted = recorded(
      'response.submitted',
      { onboarding_id: ONBOARDING, step_id: 'step-1', submitted_at: '2026-01-05T00:00:00Z' },
      4n,
    );
    expect(responseOf(fold(created, answer('x', 2n), submitted))?.status).toBe('submitted');
  });

  it('nulls the values of an erased client, an event of the clients feature it declares', () => {
    expect(RESPONSES_HANDLED).toContain('client.erased');
    const erased = recorded('client.erased', { client_id: CLIENT, erased_at: '2026-01-06T00:00:00Z' }, 5n);
    expect(responseOf(fold(created, answer('x', 2n), erased))).toMatchObject({
      value: null,
      updated_at: '2026-01-06T00:00:00Z',
    });
  });

  it('ignores answers of an onboarding it does not know', () => {
    expect(responseOf(fold(answer('x', 2n)))).toBeUndefined();
  });

  it('drops the file response once its file is removed; an earlier file’s removal leaves it', () => {
    const uploaded = (fileId: string, position: bigint) =>
      recorded(
        'file.uploaded',
        {
          onboarding_id: ONBOARDING,
          step_id: 'step-1',
          field_id: 'field-1',
          file_id: fileId,
          file_name: 'sealed',
          content_type: 'application/pdf',
          size_bytes: 3,
          uploaded_at: `2026-01-0${position}T00:00:00Z`,
        },
        position,
      );
    const removed = (fileId: string, position: bigint) =>
      recorded(
        'file_removed',
        {
          onboarding_id: ONBOARDING,
          step_id: 'step-1',
          field_id: 'field-1',
          file_id: fileId,
          removed_at: `2026-01-0${position}T00:00:00Z`,
        },
        position,
      );
    const opened = new Map([
      ['event-2', ['a.pdf']],
      ['event-3', ['b.pdf']],
    ]);
    const run = (...events: ReturnType<typeof recorded>[]) =>
      events.reduce(foldResponse, responsesBatch([], [], opened));
    const kept = run(created, uploaded('file-a', 2n), uploaded('file-b', 3n), removed('file-a', 4n));
    expect(JSON.parse(responseOf(kept)!.value!)).toMatchObject({ file_id: 'file-b' });
    expect(kept.removed.size).toBe(0);
    const dropped = run(created, uploaded('file-a', 2n), removed('file-a', 3n));
    expect(responseOf(dropped)).toBeUndefined();
    expect([...dropped.removed].map((row) => row.id)).toEqual(['file-a']);
    expect(dropped.dirty.size).toBe(0);
  });
});
