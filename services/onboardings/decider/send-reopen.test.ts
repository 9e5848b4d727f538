import { describe, expect, it } from 'vitest';
import { DomainError, fold } from '../../../shared/commands/decider.ts';
import { onboardingDecider, type OnboardingCommand, type SendFacts } from './index.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import {
  CLIENT,
  OTHER_TEAM,
  TEAM,
  answered,
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
  send,
  open,
  inProgress,
} from './test-fixtures.ts';

/** Send, resend and reopen (and unarchive, the workspace's other way back). */
const given = DeciderSpecification.for(onboardingDecider);

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
      .events();
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
      .thenState();
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
      .events();
    const types = given(...done, ...reopened)
      .when({ type: 'OpenLink', data: { token_hash: 'hash-reopen' }, metadata: { now: at(61) } })
      .events()
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
        .events(),
    ).toHaveLength(1);
    expect(
      given(...done)
        .when(reopen({ facts: { monthly_limit: 'unlimited', monthly_used: 900 } }))
        .events(),
    ).toHaveLength(1);
  });

  it('given a cancelled or expired onboarding, when reopened, then sent; a passed expiry is cleared', () => {
    expect(given(created(), sent(1, 'draft'), cancelled('sent')).when(reopen()).thenState().status).toBe(
      'sent',
    );
    const expiry = at(30).toISOString();
    const [event] = given(created(), sent(1, 'draft'), expired(expiry)).when(reopen()).events();
    expect(event).toMatchObject({ data: { from: 'expired', expires_at: null } });
  });

  it('given a new PIN, when reopened, then the PIN changes; without one it carries over', () => {
    const [event] = given(...done)
      .when(reopen({ pin: true }))
      .events();
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
    expect(run.events()).toEqual([
      { type: 'onboarding_unarchived', data: { ...base, unarchived_at: at(30).toISOString() } },
    ]);
    expect(run.thenState()).toMatchObject({ archived_at: null });
  });

  it('given an onboarding not archived, when unarchived, then nothing', () => {
    expect(given(created()).when(unarchive()).events()).toEqual([]);
  });

  it("given another team's or no onboarding, when unarchived, then target_unavailable", () => {
    given(created(), archived()).when(unarchive(OTHER_TEAM)).thenThrows('target_unavailable');
    given().when(unarchive()).thenThrows('target_unavailable');
  });
});

describe('send checks, in order', () => {
  const payment = (amount: unknown, is_required = true) =>
    field('pay', 'payment', { is_required, config: { amount_cents: amount as number, currency: 'usd' } });
  const sample = field('sig', 'signature', {
    label: 'Engagement',
    config: { agreement_text: 'Lorem', is_sample_text: true },
  });

  it('archived: target_unavailable (before anything else)', () => {
    given(created(), archived())
      .when(send({ facts: { sending_paused: true } }))
      .thenThrows('target_unavailable');
  });

  it('erased client: client_erasure_pending; missing client: client_scope_missing', () => {
    given(created())
      .when(send({ facts: { client: 'erased' } }))
      .thenThrows('client_erasure_pending');
    given(created())
      .when(send({ facts: { client: 'missing' } }))
      .thenThrows('client_scope_missing');
  });

  it('1. invalid payment amount: invalid_payment (only for a required payment field)', () => {
    for (const amount of [0, -5, 1.5, '100', null, undefined]) {
      given(created(snapshot({ fields2: [payment(amount)] })))
        .when(send({ facts: { plan_can_collect_payments: false, payments_connected: false } }))
        .thenThrows('invalid_payment', { field_id: 'pay', step_id: 's2' });
    }
    given(created(snapshot({ fields2: [payment(0, false)] })))
      .when(send({ facts: { plan_can_collect_payments: false, payments_connected: false } }))
      .thenTypes(['onboarding.sent']);
  });

  it('1. a currency Stripe cannot charge in, or below its minimum: invalid_payment before the plan', () => {
    const inCurrency = (amount: number, currency: string, interval?: string) =>
      field('pay', 'payment', {
        config: { amount_cents: amount, currency, ...(interval ? { interval } : {}) },
      });
    for (const payment of [
      inCurrency(5000, 'XYZ'),
      inCurrency(49, 'eur'),
      inCurrency(5000, 'usd', 'fortnight'),
    ]) {
      given(created(snapshot({ fields2: [payment] })))
        .when(send({ facts: { plan_can_collect_payments: false, payments_connected: false } }))
        .thenThrows('invalid_payment', { field_id: 'pay', step_id: 's2' });
    }
    given(created(snapshot({ fields2: [inCurrency(50, 'EUR', 'month'), inCurrency(50, 'jpy')] })))
      .when(send({ facts: { plan_can_collect_payments: false } }))
      .thenThrows('payment_plan_required');
  });

  it('2. plan cannot collect payments: payment_plan_required', () => {
    given(created(snapshot({ fields2: [payment(5000)] })))
      .when(send({ facts: { plan_can_collect_payments: false, payments_connected: false } }))
      .thenThrows('payment_plan_required');
  });

  it('3. no connected processor: payment_not_connected', () => {
    given(created(snapshot({ fields2: [payment(5000)] })))
      .when(send({ facts: { payments_connected: false, sending_paused: true } }))
      .thenThrows('payment_not_connected');
  });

  it('4. sample agreement text: agreement_text_required naming the field', () => {
    const error = given(created(snapshot({ fields1: [field('f1', 'short_text'), sample] })))
      .when(send({ facts: { sending_paused: true } }))
      .thenThrows('agreement_text_required', { field_id: 'sig', step_id: 's1' });
    expect(error.message).toContain('"Engagement"');
    const blank = field('sig', 'signature', { config: { agreement_text: '  ' } });
    given(created(snapshot({ fields1: [blank] })))
      .when(send())
      .thenThrows('agreement_text_required');
  });

  it('5. sending paused: sending_paused; unpaid team over the new-recipient cap: recipient_cap_reached', () => {
    given(created())
      .when(
        send({
          facts: { sending_paused: true, unpaid: true, new_recipients_last_24h: 99, monthly_used: 100 },
        }),
      )
      .thenThrows('sending_paused');
    given(created())
      .when(
        send({
          facts: { unpaid: true, new_recipients_last_24h: 10, new_recipient_cap: 10, monthly_used: 100 },
        }),
      )
      .thenThrows('recipient_cap_reached');
    given(created())
      .when(send({ facts: { unpaid: true, new_recipients_last_24h: 9, new_recipient_cap: 10 } }))
      .thenTypes(['onboarding.sent']);
    given(created())
      .when(
        send({
          facts: { unpaid: true, new_recipient: false, new_recipients_last_24h: 10, new_recipient_cap: 10 },
        }),
      )
      .thenTypes(['onboarding.sent']);
    given(created())
      .when(send({ facts: { unpaid: false, new_recipients_last_24h: 10, new_recipient_cap: 10 } }))
      .thenTypes(['onboarding.sent']);
  });

  it('6. monthly limit reached: limit_reached, the onboarding stays a draft', () => {
    given(created())
      .when(send({ facts: { monthly_used: 3, monthly_limit: 3 } }))
      .thenThrows('limit_reached');
    given(created())
      .when(send({ facts: { monthly_used: 10_000, monthly_limit: 'unlimited' } }))
      .thenTypes(['onboarding.sent']);
  });

  it('requires_force: in_progress with an answer saved within 5 minutes, after every other check', () => {
    given(...inProgress, answered('f1', 's1', 6))
      .when(send({}, 10))
      .thenThrows('requires_force');
    given(...inProgress, answered('f1', 's1', 6))
      .when(send({ facts: { sending_paused: true } }, 10))
      .thenThrows('sending_paused');
    // 4:59 after the save: still active; 5:00 after: not.
    const save = answered('f1', 's1', 6);
    const state = fold(onboardingDecider, [...inProgress, save]);
    const sendAt = (ms: number) => ({ ...send(), metadata: { now: new Date(at(6).getTime() + ms) } });
    expect(() => onboardingDecider.decide(sendAt(299_000), state)).toThrow(DomainError);
    expect(onboardingDecider.decide(sendAt(300_000), state)).toHaveLength(1);
  });

  it('a sent onboarding (not in_progress) never needs force', () => {
    given(created(), sent(1, 'draft'), answered('f1', 's1', 9))
      .when(send({}, 10))
      .thenTypes(['onboarding.sent']);
  });

  it('PIN: a new one replaces, an omitted one carries over', () => {
    const withPin = onboardingDecider.decide(send({ pin: true }), fold(onboardingDecider, [created()]));
    expect(withPin[0]).toMatchObject({ data: { pin: { salt: 's', hash: 'h' }, pin_changed: true } });
    const state = fold(onboardingDecider, [created(), ...withPin]);
    const resend = onboardingDecider.decide(send({}, 20), state);
    expect(resend[0]).toMatchObject({ data: { pin: { salt: 's', hash: 'h' }, pin_changed: false } });
  });

  it('a send deactivates earlier tokens: only the newest link opens', () => {
    const events = [created(), sent(1, 'draft'), sent(2, 'sent', 3)];
    given(...events)
      .when(open('hash-0'))
      .thenThrows('link_inactive');
    given(...events)
      .when(open('hash-1'))
      .thenThrows('link_inactive');
    given(...events)
      .when(open('hash-2'))
      .thenTypes(['onboarding.started']);
  });
});

describe('a reopen that cannot get stuck (decision 0077)', () => {
  // One required step with one answer, one optional step without answerable fields.
  const form = snapshot({ fields1: [field('f1', 'short_text')], fields2: [] });
  const decided = (events: OnboardingEvent[], command: OnboardingCommand) => [
    ...events,
    ...onboardingDecider.decide(command, fold(onboardingDecider, events)),
  ];
  const submitS1 = (token = 'hash-1', minutes = 10): OnboardingCommand => ({
    type: 'SubmitStep',
    data: { token_hash: token, step_id: 's1', values: { f1: 'x' } },
    metadata: { now: at(minutes) },
  });
  const approvedF1: OnboardingEvent = {
    type: 'response_approved',
    data: {
      ...base,
      step_id: 's1',
      field_id: 'f1',
      response_id: 'r-f1',
      member_id: '66666666-6666-4666-8666-666666666666',
      reviewed_at: at(20).toISOString(),
    },
  };
  const finished = decided(
    [created(form), sent(1, 'draft'), started(1, 'sent'), answered('f1', 's1')],
    submitS1(),
  );
  const allApproved = [...finished, approvedF1];
  const reopenUnlocking = (unlock: string[]) => {
    const command = reopen();
    return { ...command, data: { ...command.data, unlock_approved: unlock } } as OnboardingCommand;
  };

  it('given every answer approved, when reopened without unlocking, then 409 nothing_to_reopen in words', () => {
    expect(finished.at(-1)?.type).toBe('onboarding.completed');
    given(...allApproved)
      .when(reopen())
      .thenThrows('nothing_to_reopen');
    try {
      onboardingDecider.decide(reopen(), fold(onboardingDecider, allApproved));
    } catch (error) {
      expect((error as DomainError).message).toMatch(/choose the approved answers to unlock/);
    }
  });

  it('given every answer approved, when the member unlocks one, then its approval is lifted and its step opens again', () => {
    const [event] = given(...allApproved)
      .when(reopenUnlocking(['f1']))
      .events();
    expect(event).toMatchObject({
      type: 'onboarding_reopened',
      data: { unlocked_field_ids: ['f1'], open_step_ids: ['s1'], progress_pct: 0 },
    });
    const state = given(...allApproved)
      .when(reopenUnlocking(['f1']))
      .thenState();
    expect(state).toMatchObject({ status: 'sent', reviews: {}, submitted_steps: [], progress_pct: 0 });
  });

  it('given answers not approved, when reopened by default, then they open and approved ones stay locked', () => {
    const two = snapshot({ fields1: [field('f1', 'short_text'), field('f3', 'short_text')], fields2: [] });
    const events = decided(
      [created(two), sent(1, 'draft'), started(1, 'sent'), answered('f1', 's1'), answered('f3', 's1')],
      {
        type: 'SubmitStep',
        data: { token_hash: 'hash-1', step_id: 's1', values: { f1: 'x', f3: 'y' } },
        metadata: { now: at(10) },
      },
    );
    const [event] = given(...events, approvedF1)
      .when(reopen())
      .events();
    expect(event).toMatchObject({ data: { unlocked_field_ids: [], open_step_ids: ['s1'] } });
    const state = given(...events, approvedF1)
      .when(reopen())
      .thenState();
    expect(state).toMatchObject({ reviews: { f1: { status: 'approved' } }, submitted_steps: [] });
  });

  it('given an unlocked reopen, when the client changes the answer and submits, then a new version and the onboarding completes', () => {
    let events = decided(allApproved, reopenUnlocking(['f1']));
    events = decided(events, open('hash-reopen', 61));
    const save: OnboardingCommand = {
      type: 'SaveAnswer',
      data: { token_hash: 'hash-reopen', field_id: 'f1', value: 'new', response_id: 'r-new' },
      metadata: { now: at(62) },
    } as OnboardingCommand;
    events = decided(events, save);
    expect(events.at(-1)).toMatchObject({ type: 'answer_saved', data: { response_id: 'r-new' } });
    events = decided(events, submitS1('hash-reopen', 63));
    expect(events.slice(-2).map((event) => event.type)).toEqual([
      'response.submitted',
      'onboarding.completed',
    ]);
    expect(fold(onboardingDecider, events)).toMatchObject({ status: 'completed', progress_pct: 100 });
  });

  it('given a reopen recorded before the unlock choice (all steps still submitted), when the client submits any step, then the onboarding completes', () => {
    const [reopened] = onboardingDecider.decide(
      reopenUnlocking(['f1']),
      fold(onboardingDecider, allApproved),
    );
    const {
      unlocked_field_ids: _u,
      open_step_ids: _o,
      progress_pct: _p,
      ...older
    } = (reopened as Extract<OnboardingEvent, { type: 'onboarding_reopened' }>).data;
    let events: OnboardingEvent[] = [...allApproved, { type: 'onboarding_reopened', data: older }];
    events = decided(events, open('hash-reopen', 61));
    events = decided(events, submitS1('hash-reopen', 63));
    expect(events.at(-1)?.type).toBe('onboarding.completed');
  });

  it('given an optional answer left empty in an approved step, when reopened without unlocking, then still nothing_to_reopen', () => {
    const withOptional = snapshot({
      fields1: [field('f1', 'short_text'), field('f4', 'short_text', { is_required: false })],
      fields2: [field('f2', 'short_text', { is_required: false })],
    });
    const events = decided(
      [created(withOptional), sent(1, 'draft'), started(1, 'sent'), answered('f1', 's1')],
      submitS1(),
    );
    given(...events, approvedF1)
      .when(reopen())
      .thenThrows('nothing_to_reopen');
  });

  it('given an unlock naming no field of the form, when reopened, then 400 invalid_body', () => {
    given(...allApproved)
      .when(reopenUnlocking(['nope']))
      .thenThrows('invalid_body');
  });
});
