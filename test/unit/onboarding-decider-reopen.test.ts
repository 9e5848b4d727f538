import { describe, expect, it } from 'vitest';
import { DomainError, fold } from '../../shared/commands/decider.ts';
import {
  onboardingDecider,
  type OnboardingCommand,
  type SendFacts,
} from '../../services/onboardings/decider/index.ts';
import type { OnboardingEvent } from '../../services/onboardings/onboarding-events.ts';
import {
  CLIENT,
  OTHER_TEAM,
  TEAM,
  archived,
  at,
  base,
  cancelled,
  created,
  facts,
  field,
  sent,
  snapshot,
  started,
} from './onboarding-fixtures.ts';

/** Reopen and unarchive (the workspace's commands), given events, when a command, then events. */
function given(...events: OnboardingEvent[]) {
  const state = fold(onboardingDecider, events);
  return {
    when(command: OnboardingCommand) {
      const run = () => onboardingDecider.decide(command, state);
      return {
        run,
        after: () => fold(onboardingDecider, [...events, ...run()]),
        thenThrows(code: string) {
          expect(run).toThrowError(DomainError);
          expect(run).toThrowError(expect.objectContaining({ code }));
        },
      };
    },
  };
}

const reopen = (options: { facts?: Partial<SendFacts>; pin?: boolean; team?: string } = {}, minutes = 60) =>
  ({
    type: 'ReopenOnboarding',
    data: {
      team_id: options.team ?? TEAM,
      token_hash: 'hash-reopen',
      pin: options.pin ? { salt: 's2', hash: 'h2' } : null,
      facts: facts(options.facts),
    },
    metadata: { now: at(minutes) },
  }) as const;

const unarchive = (team = TEAM): OnboardingCommand => ({
  type: 'UnarchiveOnboarding',
  data: { team_id: team },
  metadata: { now: at(30) },
});

const completed: OnboardingEvent = {
  type: 'onboarding.completed',
  data: { ...base, progress_pct: 100, completed_at: at(10).toISOString() },
};
const expired = (expiresAt: string): OnboardingEvent => ({
  type: 'onboarding_expired',
  data: { ...base, from: 'sent', expires_at: expiresAt, expired_at: at(40).toISOString() },
});
const done = [created(), sent(1, 'draft'), started(1, 'sent'), completed];

describe('reopen', () => {
  it('given a completed onboarding, when reopened, then onboarding_reopened: sent again with a new link, counted', () => {
    const [event, ...rest] = given(...done)
      .when(reopen())
      .run();
    expect(rest).toEqual([]);
    expect(event).toMatchObject({
      type: 'onboarding_reopened',
      data: {
        ...base,
        client_id: CLIENT,
        from: 'completed',
        status: 'sent',
        send_number: 2,
        usage_month: '2025-03',
        token_hash: 'hash-reopen',
        pin: null,
        pin_changed: false,
        expires_at: null,
        reopened_at: at(60).toISOString(),
      },
    });
    const state = given(...done)
      .when(reopen())
      .after();
    expect(state).toMatchObject({
      status: 'sent',
      token_hash: 'hash-reopen',
      send_count: 2,
      started_since_send: false,
    });
  });

  it('given a reopened onboarding, when the new link is opened, then onboarding.started again', () => {
    const reopened = given(...done)
      .when(reopen())
      .run();
    const types = given(...done, ...reopened)
      .when({ type: 'OpenLink', data: { token_hash: 'hash-reopen' }, metadata: { now: at(61) } })
      .run()
      .map((event) => event.type);
    expect(types).toEqual(['onboarding.started']);
  });

  it('counts once more even when the first send was counted; at the limit: limit_reached', () => {
    given(...done)
      .when(reopen({ facts: { monthly_limit: 5, monthly_used: 5 } }))
      .thenThrows('limit_reached');
    expect(
      given(...done)
        .when(reopen({ facts: { monthly_limit: 5, monthly_used: 4 } }))
        .run(),
    ).toHaveLength(1);
    expect(
      given(...done)
        .when(reopen({ facts: { monthly_limit: 'unlimited', monthly_used: 900 } }))
        .run(),
    ).toHaveLength(1);
  });

  it('given a cancelled or expired onboarding, when reopened, then sent; a passed expiry is cleared', () => {
    expect(given(created(), sent(1, 'draft'), cancelled('sent')).when(reopen()).after().status).toBe('sent');
    const expiry = at(30).toISOString();
    const [event] = given(created(), sent(1, 'draft'), expired(expiry)).when(reopen()).run();
    expect(event).toMatchObject({ data: { from: 'expired', expires_at: null } });
  });

  it('given a new PIN, when reopened, then the PIN changes; without one it carries over', () => {
    const [event] = given(...done)
      .when(reopen({ pin: true }))
      .run();
    expect(event).toMatchObject({ data: { pin: { salt: 's2', hash: 'h2' }, pin_changed: true } });
  });

  it('given an open onboarding (draft, sent, in progress), when reopened, then invalid_state', () => {
    given(created()).when(reopen()).thenThrows('invalid_state');
    given(created(), sent(1, 'draft')).when(reopen()).thenThrows('invalid_state');
    given(created(), sent(1, 'draft'), started(1, 'sent')).when(reopen()).thenThrows('invalid_state');
  });

  it('refuses as a send does: archived or another team (target_unavailable), erased client, send checks', () => {
    given(...done, archived(20))
      .when(reopen())
      .thenThrows('target_unavailable');
    given(...done)
      .when(reopen({ team: OTHER_TEAM }))
      .thenThrows('target_unavailable');
    given(...done)
      .when(reopen({ facts: { client: 'erased' } }))
      .thenThrows('client_erasure_pending');
    given(...done)
      .when(reopen({ facts: { sending_paused: true } }))
      .thenThrows('sending_paused');
    const sample = field('sig', 'signature', { config: { agreement_text: 'Lorem', is_sample_text: true } });
    given(created(snapshot({ fields2: [sample] })), sent(1, 'draft'), cancelled('sent'))
      .when(reopen())
      .thenThrows('agreement_text_required');
  });
});

describe('unarchive', () => {
  it('given an archived onboarding, when unarchived, then onboarding_unarchived and it is in the lists again', () => {
    const run = given(created(), archived()).when(unarchive());
    expect(run.run()).toEqual([
      { type: 'onboarding_unarchived', data: { ...base, unarchived_at: at(30).toISOString() } },
    ]);
    expect(run.after()).toMatchObject({ archived_at: null });
  });

  it('given an onboarding not archived, when unarchived, then nothing', () => {
    expect(given(created()).when(unarchive()).run()).toEqual([]);
  });

  it("given another team's or no onboarding, when unarchived, then target_unavailable", () => {
    given(created(), archived()).when(unarchive(OTHER_TEAM)).thenThrows('target_unavailable');
    given().when(unarchive()).thenThrows('target_unavailable');
  });
});
