import { describe, expect, it } from 'vitest';
import { recorded } from '../fold-test-events.ts';
import { foldOnboarding, onboardingsBatch, ONBOARDINGS_HANDLED } from './fold.ts';

const ID = 'A1B2C3D4-0000-4000-8000-000000000001';
const created = recorded(
  'onboarding_created',
  {
    onboarding_id: ID,
    team_id: 'team-1',
    client_id: 'client-1',
    template_id: 'template-1',
    template_source: 'team',
    template_snapshot: { name: 'Welcome', steps: [] },
    token_hash: 'hash-0',
    created_at: '2026-01-01T00:00:00Z',
  },
  10n,
  'event-created',
  0n,
);
const sent = recorded(
  'onboarding.sent',
  {
    onboarding_id: ID,
    team_id: 'team-1',
    status: 'sent',
    send_number: 1,
    token_hash: 'hash-1',
    sent_at: '2026-01-02T00:00:00Z',
  },
  20n,
  'event-sent',
  1n,
);
const resent = recorded(
  'onboarding.sent',
  {
    onboarding_id: ID,
    team_id: 'team-1',
    status: 'sent',
    send_number: 2,
    token_hash: 'hash-2',
    sent_at: '2026-01-03T00:00:00Z',
  },
  30n,
  'event-resent',
  2n,
);

describe('onboardings fold', () => {
  it('skips the events a row already has (applied inline) and applies the later ones', () => {
    // The command's transaction applied created and both sends; the runner then meets
    // them again from the log: a second send applied again would deactivate the newest link.
    const inline = [created, sent, resent].reduce(foldOnboarding, onboardingsBatch([], []));
    const row = inline.rows.get(ID.toLowerCase())!;
    expect(row.stream_revision).toBe('2');
    const loaded = onboardingsBatch(
      [{ ...row }],
      [...inline.links.values()].map((link) => ({ ...link })),
    );
    const runner = [created, sent, resent].reduce(foldOnboarding, loaded);
    expect(runner.dirtyRows.size).toBe(0);
    expect(runner.dirtyLinks.size).toBe(0);
    expect(runner.links.get('hash-2')?.deactivated_at).toBeNull();

    const partly = onboardingsBatch([{ ...row, stream_revision: '1', send_count: 1 }], []);
    expect([sent, resent].reduce(foldOnboarding, partly).rows.get(ID.toLowerCase())).toMatchObject({
      send_count: 2,
      stream_revision: '2',
    });
  });

  it('creates the onboarding as a draft with its first link', () => {
    const batch = foldOnboarding(onboardingsBatch([], []), created);
    expect(batch.rows.get(ID.toLowerCase())).toMatchObject({
      status: 'draft',
      template_name: 'Welcome',
      position: '10',
    });
    expect(batch.links.get('hash-0')).toMatchObject({ send_number: 0, deactivated_at: null });
  });

  it('a send deactivates the earlier links and issues a new one', () => {
    const batch = [created, sent].reduce(foldOnboarding, onboardingsBatch([], []));
    expect(batch.rows.get(ID.toLowerCase())).toMatchObject({ status: 'sent', send_count: 1 });
    expect(batch.links.get('hash-0')?.deactivated_at).toBe('2026-01-02T00:00:00Z');
    expect(batch.links.get('hash-1')?.deactivated_at).toBeNull();
    expect([...batch.dirtyLinks].sort()).toEqual(['hash-0', 'hash-1']);
  });

  it('changes nothing for an onboarding it has no row for', () => {
    const batch = foldOnboarding(onboardingsBatch([], []), sent);
    expect(batch.dirtyRows.size).toBe(0);
  });

  it('does not ask for events that change none of its rows', () => {
    expect(ONBOARDINGS_HANDLED).toContain('onboarding_created');
    expect(ONBOARDINGS_HANDLED).not.toContain('answer_saved');
  });
});
