import { describe, expect, it } from 'vitest';
import { DomainError, fold } from '../../shared/commands/decider.ts';
import {
  onboardingDecider,
  type OnboardingCommand,
  type SendFacts,
} from '../../services/onboardings/decider/index.ts';
import type { OnboardingEvent } from '../../services/onboardings/onboarding-events.ts';
import { desiredTimers } from '../../services/onboardings/onboarding-timers.ts';
import {
  CLIENT,
  MEMBER,
  ONBOARDING,
  OTHER_TEAM,
  T0,
  TEAM,
  TEMPLATE,
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
} from './onboarding-fixtures.ts';

/** Given events, when a command, then events (or then a DomainError with a code). */
function given(...events: OnboardingEvent[]) {
  const state = fold(onboardingDecider, events);
  return {
    state,
    when(command: OnboardingCommand) {
      const run = () => onboardingDecider.decide(command, state);
      return {
        then: (expected: OnboardingEvent[]) => expect(run()).toEqual(expected),
        thenTypes: (types: string[]) => expect(run().map((event) => event.type)).toEqual(types),
        thenStatus: () => fold(onboardingDecider, [...events, ...run()]).status,
        thenThrows(code: string, details?: Record<string, unknown>) {
          let error: unknown;
          try {
            run();
          } catch (caught) {
            error = caught;
          }
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe(code);
          if (details) expect((error as DomainError).details).toEqual(details);
          return error as DomainError;
        },
      };
    },
  };
}

const patch = (
  data: Partial<Extract<OnboardingCommand, { type: 'UpdateOnboarding' }>['data']>,
  minutes = 10,
) =>
  ({ type: 'UpdateOnboarding', data: { team_id: TEAM, ...data }, metadata: { now: at(minutes) } }) as const;

const send = (options: { facts?: Partial<SendFacts>; force?: boolean; pin?: boolean } = {}, minutes = 10) =>
  ({
    type: 'SendOnboarding',
    data: {
      team_id: TEAM,
      token_hash: 'hash-new',
      pin: options.pin ? { salt: 's', hash: 'h' } : null,
      force: options.force ?? false,
      facts: facts(options.facts),
    },
    metadata: { now: at(minutes) },
  }) as const;

const createCommand = (
  overrides: Partial<Extract<OnboardingCommand, { type: 'CreateOnboarding' }>['data']> = {},
): OnboardingCommand => ({
  type: 'CreateOnboarding',
  data: {
    onboarding_id: ONBOARDING,
    team_id: TEAM,
    client_id: CLIENT,
    template_id: TEMPLATE,
    template: { source: 'team', snapshot: snapshot() },
    client: 'active',
    token_hash: 'hash-0',
    due: null,
    expires_at: null,
    ...overrides,
  },
  metadata: { now: T0 },
});

const open = (token_hash: string, minutes = 20): OnboardingCommand => ({
  type: 'OpenLink',
  data: { token_hash },
  metadata: { now: at(minutes) },
});

const inProgress = [created(), sent(1, 'draft'), started(1, 'sent')];

describe('transition table', () => {
  it('(new) --POST onboardings--> draft, with a client token, not counted', () => {
    const withDefaultSchedule = created();
    if (withDefaultSchedule.type === 'onboarding_created') {
      withDefaultSchedule.data.reminder_schedule = [
        { when: 'after_send', days: 3 },
        { when: 'after_send', days: 7 },
      ];
    }
    given().when(createCommand()).then([withDefaultSchedule]);
    expect(given(created()).state.status).toBe('draft');
  });

  it('draft --PATCH cancelled--> cancelled; the link is deactivated', () => {
    const when = given(created()).when(patch({ status: 'cancelled' }));
    when.then([cancelled('draft', 10)]);
    const state = fold(onboardingDecider, [created(), cancelled('draft', 10)]);
    expect(state.status === 'cancelled' && state.token_hash).toBeNull();
  });

  it('sent --PATCH cancelled--> cancelled; reminders are no longer wanted', () => {
    given(created(), sent(1, 'draft'))
      .when(patch({ status: 'cancelled' }))
      .then([cancelled('sent', 10)]);
    expect(desiredTimers(fold(onboardingDecider, [created(), sent(1, 'draft')]))).toHaveLength(2);
    expect(desiredTimers(fold(onboardingDecider, [created(), sent(1, 'draft'), cancelled('sent')]))).toEqual(
      [],
    );
  });

  it('sent --PATCH in_progress--> in_progress', () => {
    given(created(), sent(1, 'draft'))
      .when(patch({ status: 'in_progress' }))
      .then([
        {
          type: 'onboarding_marked_in_progress',
          data: { ...base, from: 'sent', marked_at: at(10).toISOString() },
        },
      ]);
  });

  it('in_progress --PATCH cancelled--> cancelled', () => {
    given(...inProgress)
      .when(patch({ status: 'cancelled' }))
      .then([cancelled('in_progress', 10)]);
  });

  it('draft --send--> sent: new token, reminders at 3 and 7 days, counted once', () => {
    expect(given(created()).when(send()).thenStatus()).toBe('sent');
    const events = onboardingDecider.decide(send(), fold(onboardingDecider, [created()]));
    expect(events).toEqual([
      {
        type: 'onboarding.sent',
        data: {
          ...base,
          client_id: CLIENT,
          send_number: 1,
          resend: false,
          from: 'draft',
          status: 'sent',
          counted: true,
          usage_month: '2025-03',
          new_recipient: true,
          token_hash: 'hash-new',
          pin: null,
          pin_changed: false,
          forced: false,
          reminders_at: ['2025-03-13T09:10:00.000Z', '2025-03-17T09:10:00.000Z'],
          sent_at: at(10).toISOString(),
        },
      },
    ]);
  });

  it('sent --send--> sent: a resend does not count again', () => {
    const [event] = onboardingDecider.decide(send(), fold(onboardingDecider, [created(), sent(1, 'draft')]));
    expect(event).toMatchObject({
      type: 'onboarding.sent',
      data: { send_number: 2, resend: true, from: 'sent', status: 'sent', counted: false, usage_month: null },
    });
  });

  it('sent --send--> sent even when the monthly limit is used up (the resend is not counted)', () => {
    given(created(), sent(1, 'draft'))
      .when(send({ facts: { monthly_used: 100, monthly_limit: 100 } }))
      .thenTypes(['onboarding.sent']);
  });

  it('in_progress --send--> in_progress when no answer was saved in the last 5 minutes', () => {
    const [event] = onboardingDecider.decide(
      send({}, 9),
      fold(onboardingDecider, [...inProgress, answered('f1', 's1', 3)]),
    );
    expect(event).toMatchObject({ data: { from: 'in_progress', status: 'in_progress', counted: false } });
  });

  it('in_progress --send--> in_progress with force while the client is active', () => {
    given(...inProgress, answered('f1', 's1', 8))
      .when(send({ force: true }, 10))
      .thenTypes(['onboarding.sent']);
  });
});

describe('moves outside the table are 409 invalid_state', () => {
  const cases: [string, OnboardingEvent[], 'cancelled' | 'in_progress'][] = [
    ['draft --PATCH in_progress', [created()], 'in_progress'],
    ['in_progress --PATCH in_progress', inProgress, 'in_progress'],
    ['cancelled --PATCH cancelled', [created(), cancelled('draft')], 'cancelled'],
    ['cancelled --PATCH in_progress', [created(), cancelled('draft')], 'in_progress'],
  ];
  it.each(cases)('%s', (_name, events, status) => {
    given(...events)
      .when(patch({ status }))
      .thenThrows('invalid_state');
  });

  it('completed and expired cannot be patched to a status', () => {
    const completed = completedEvents();
    given(...completed)
      .when(patch({ status: 'cancelled' }))
      .thenThrows('invalid_state');
    given(...completed)
      .when(patch({ status: 'in_progress' }))
      .thenThrows('invalid_state');
    const expired = expiredEvents();
    given(...expired)
      .when(patch({ status: 'cancelled' }))
      .thenThrows('invalid_state');
  });

  it('closed onboardings (completed, cancelled, expired) cannot be sent', () => {
    for (const events of [completedEvents(), [created(), cancelled('draft')], expiredEvents()]) {
      given(...events)
        .when(send({ force: true }))
        .thenThrows('invalid_state');
    }
  });

  it('an invalid move changes nothing else either (due date in the same PATCH)', () => {
    given(created())
      .when(
        patch({
          status: 'in_progress',
          due: { due_date: '2025-04-01T00:00:00.000Z', due_on: null, due_timezone: null },
        }),
      )
      .thenThrows('invalid_state');
  });
});

describe('PATCH', () => {
  it('archived, missing or another team’s onboarding: target_unavailable', () => {
    given(created(), archived())
      .when(patch({ status: 'cancelled' }))
      .thenThrows('target_unavailable');
    given()
      .when(patch({ status: 'cancelled' }))
      .thenThrows('target_unavailable');
    given(created())
      .when({ ...patch({ status: 'cancelled' }), data: { team_id: OTHER_TEAM, status: 'cancelled' } })
      .thenThrows('target_unavailable');
  });

  it('due date set, changed, cleared; nothing when unchanged', () => {
    const due = {
      due_date: '2025-03-31T23:59:59.999-04:00',
      due_on: '2025-03-31',
      due_timezone: 'America/New_York',
    };
    given(created())
      .when(patch({ due }))
      .then([
        { type: 'onboarding_updated', data: { ...base, changes: due, updated_at: at(10).toISOString() } },
      ]);
    const withDue: OnboardingEvent = {
      type: 'onboarding_updated',
      data: { ...base, changes: due, updated_at: at(1).toISOString() },
    };
    given(created(), withDue).when(patch({ due })).then([]);
    given(created(), withDue)
      .when(patch({ due: null }))
      .then([
        {
          type: 'onboarding_updated',
          data: {
            ...base,
            changes: { due_date: null, due_on: null, due_timezone: null },
            updated_at: at(10).toISOString(),
          },
        },
      ]);
  });

  it('assigned_to: a current member assigns, null unassigns, anything else is invalid_assignee', () => {
    given(created())
      .when(patch({ assignee: { member_id: MEMBER, is_current_member: true } }))
      .then([
        {
          type: 'onboarding_updated',
          data: { ...base, changes: { assigned_to: MEMBER }, updated_at: at(10).toISOString() },
        },
      ]);
    given(created())
      .when(patch({ assignee: { member_id: MEMBER, is_current_member: false } }))
      .thenThrows('invalid_assignee');
    given(created())
      .when(patch({ assignee: { member_id: null, is_current_member: false } }))
      .then([]);
  });

  it('an invalid assignee wins over an invalid status move, and nothing is decided', () => {
    given(created())
      .when(patch({ status: 'in_progress', assignee: { member_id: MEMBER, is_current_member: false } }))
      .thenThrows('invalid_assignee');
  });

  it('the due date of a closed onboarding can still change (not a status move)', () => {
    given(created(), cancelled('draft'))
      .when(patch({ due: { due_date: '2025-04-01T00:00:00.000Z', due_on: null, due_timezone: null } }))
      .thenTypes(['onboarding_updated']);
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

describe('portal moves', () => {
  it('the first open after each send records onboarding.started; sent becomes in_progress', () => {
    expect(given(created(), sent(1, 'draft')).when(open('hash-1')).thenStatus()).toBe('in_progress');
    given(...inProgress)
      .when(open('hash-1'))
      .then([]);
    given(...inProgress, sent(2, 'in_progress', 30))
      .when(open('hash-2', 31))
      .then([started(2, 'in_progress', 31)]);
  });

  it('a draft or completed link opens without an event; cancelled, expired, archived links are inactive', () => {
    given(created()).when(open('hash-0')).then([]);
    given(...completedEvents())
      .when(open('hash-1', 60))
      .then([]);
    given(created(), sent(1, 'draft'), cancelled('sent')).when(open('hash-1')).thenThrows('link_inactive');
    given(created(), sent(1, 'draft'), archived()).when(open('hash-1')).thenThrows('link_inactive');
    given(...expiredEvents())
      .when(open('hash-1', 60 * 24 * 3))
      .thenThrows('link_inactive');
  });

  it('a link past expires_at is inactive and the expire move closes the onboarding', () => {
    const events = [createdExpiring(), sent(1, 'draft')];
    given(...events)
      .when(open('hash-1', 61))
      .thenThrows('link_inactive');
    given(...events)
      .when({ type: 'ExpireOnboarding', data: {}, metadata: { now: at(59) } })
      .then([]);
    expect(
      given(...events)
        .when({ type: 'ExpireOnboarding', data: {}, metadata: { now: at(60) } })
        .thenStatus(),
    ).toBe('expired');
  });

  it('answers are drafts that mark the client active; a step submit needs its required answers', () => {
    const save: OnboardingCommand = {
      type: 'SaveAnswer',
      data: { token_hash: 'hash-1', field_id: 'f1', response_id: 'r-new', value: 'x' },
      metadata: { now: at(3) },
    };
    given(...inProgress)
      .when(save)
      .then([answered('f1', 's1', 3, 'r-new')]);
    // A second save keeps the response id.
    given(...inProgress, answered('f1', 's1', 3))
      .when({ ...save, metadata: { now: at(4) } })
      .then([answered('f1', 's1', 4, 'r-f1')]);
    given(created(), sent(1, 'draft')).when(save).thenThrows('invalid_state');
    given(...inProgress)
      .when({ ...save, data: { ...save.data, field_id: 'nope' } })
      .thenThrows('field_not_found');
    const submit: OnboardingCommand = {
      type: 'SubmitStep',
      data: { token_hash: 'hash-1', step_id: 's1' },
      metadata: { now: at(5) },
    };
    given(...inProgress, answered('f1', 's1'))
      .when(submit)
      .thenThrows('invalid_body', {
        field_id: 'sig',
        step_id: 's1',
        problem: { code: 'required' },
        problems: [{ field_id: 'sig', problem: { code: 'required' } }],
      });
  });

  it('submitting every required step completes with progress 100; optional steps are not needed', () => {
    const events = completedEvents();
    const state = fold(onboardingDecider, events);
    expect(state.status).toBe('completed');
    expect(state.status !== 'absent' && state.progress_pct).toBe(100);
    expect(events.map((event) => event.type).slice(-2)).toEqual([
      'response.submitted',
      'onboarding.completed',
    ]);
    expect(desiredTimers(state)).toEqual([]);
  });

  it('an optional step first: response.submitted with progress below 100, not completed', () => {
    const submit: OnboardingCommand = {
      type: 'SubmitStep',
      data: { token_hash: 'hash-1', step_id: 's2' },
      metadata: { now: at(5) },
    };
    const [event, ...rest] = onboardingDecider.decide(submit, fold(onboardingDecider, inProgress));
    expect(event).toMatchObject({
      type: 'response.submitted',
      data: { step_id: 's2', responses: [], progress_pct: 50 },
    });
    expect(rest).toEqual([]);
  });

  it('client signature and team countersignature', () => {
    const sign = (
      signer: Extract<OnboardingCommand, { type: 'SignField' }>['data']['signer'],
    ): OnboardingCommand => ({
      type: 'SignField',
      data: {
        field_id: 'sig',
        signature_id: 'sg1',
        signer_name: 'Ada',
        signer_email: 'ada@example.com',
        signer,
      },
      metadata: { now: at(4) },
    });
    given(...inProgress)
      .when(sign({ role: 'client', token_hash: 'hash-1' }))
      .thenTypes(['signature.signed']);
    given(...completedEvents())
      .when(sign({ role: 'team_member', member_id: MEMBER }))
      .thenTypes(['signature.signed']);
    given(created(), sent(1, 'draft'))
      .when(sign({ role: 'team_member', member_id: MEMBER }))
      .thenThrows('invalid_state');
    const onText = sign({ role: 'client', token_hash: 'hash-1' });
    if (onText.type !== 'SignField') throw new Error('unreachable');
    given(...inProgress)
      .when({ ...onText, data: { ...onText.data, field_id: 'f1' } })
      .thenThrows('field_not_found');
  });

  it('a signature, a file or a payment answers a required field', () => {
    const signed: OnboardingEvent = {
      type: 'signature.signed',
      data: {
        ...base,
        step_id: 's1',
        field_id: 'sig',
        signature_id: 'sg',
        signer_name: 'A',
        signer_email: 'a@example.com',
        signer_role: 'client',
        member_id: null,
        signed_at: at(4).toISOString(),
      },
    };
    given(...inProgress, answered('f1', 's1'), signed)
      .when({ type: 'SubmitStep', data: { token_hash: 'hash-1', step_id: 's1' }, metadata: { now: at(5) } })
      .thenTypes(['response.submitted', 'onboarding.completed']);
  });

  it('file upload and payment', () => {
    const withFile = created(snapshot({ fields2: [field('f2', 'file_upload', { is_required: false })] }));
    given(withFile, sent(1, 'draft'), started(1, 'sent'))
      .when({
        type: 'UploadFile',
        data: {
          token_hash: 'hash-1',
          field_id: 'f2',
          file_id: 'file1',
          file_name: 'a.pdf',
          content_type: 'application/pdf',
          size_bytes: 10,
        },
        metadata: { now: at(4) },
      })
      .thenTypes(['file.uploaded']);
    const pay = (intent: string): OnboardingCommand => ({
      type: 'RecordPayment',
      data: {
        field_id: 'pay',
        payment_id: 'p1',
        payment_intent_id: intent,
        amount_cents: 5000,
        subscription_id: null,
        interval: null,
      },
      metadata: { now: at(4) },
    });
    const withPayment = created(
      snapshot({ fields2: [field('pay', 'payment', { config: { amount_cents: 5000 } })] }),
    );
    given(withPayment, sent(1, 'draft')).when(pay('pi_1')).thenTypes(['payment.succeeded']);
    const paid = onboardingDecider.decide(
      pay('pi_1'),
      fold(onboardingDecider, [withPayment, sent(1, 'draft')]),
    );
    given(withPayment, sent(1, 'draft'), ...paid)
      .when(pay('pi_1'))
      .then([]);
    given(withPayment).when(pay('pi_1')).thenThrows('invalid_state');
  });

  it('archive and client erasure are recorded once', () => {
    given(created())
      .when({ type: 'ArchiveOnboarding', data: {}, metadata: { now: at(5) } })
      .then([archived(5)]);
    given(created(), archived())
      .when({ type: 'ArchiveOnboarding', data: {}, metadata: { now: at(6) } })
      .then([]);
    const erase: OnboardingCommand = { type: 'EraseClient', data: {}, metadata: { now: at(5) } };
    given(created()).when(erase).thenTypes(['onboarding_client_erased']);
    const erased = onboardingDecider.decide(erase, fold(onboardingDecider, [created()]));
    given(created(), ...erased)
      .when(erase)
      .then([]);
    given(created(), ...erased)
      .when(send())
      .thenThrows('client_erasure_pending');
    given(created(), ...erased)
      .when(patch({ status: 'cancelled' }))
      .thenThrows('target_unavailable');
  });

  it('onboarding.overdue once, for a sent onboarding past its due date', () => {
    const due = { due_date: at(100).toISOString(), due_on: null, due_timezone: null };
    const withDue: OnboardingEvent = {
      type: 'onboarding_updated',
      data: { ...base, changes: due, updated_at: at(0).toISOString() },
    };
    const overdue: OnboardingCommand = { type: 'MarkOverdue', data: {}, metadata: { now: at(100) } };
    given(created(), withDue).when(overdue).then([]);
    given(created(), withDue, sent(1, 'draft'))
      .when({ ...overdue, metadata: { now: at(99) } })
      .then([]);
    given(created(), withDue, sent(1, 'draft'))
      .when(overdue)
      .then([{ type: 'onboarding.overdue', data: { ...base, ...due, overdue_at: at(100).toISOString() } }]);
    const events = onboardingDecider.decide(
      overdue,
      fold(onboardingDecider, [created(), withDue, sent(1, 'draft')]),
    );
    given(created(), withDue, sent(1, 'draft'), ...events)
      .when(overdue)
      .then([]);
  });
});

describe('create', () => {
  it('template missing, client missing or erased', () => {
    given()
      .when(createCommand({ template: null }))
      .thenThrows('template_missing');
    given()
      .when(createCommand({ client: 'missing' }))
      .thenThrows('client_scope_missing');
    given()
      .when(createCommand({ client: 'erased' }))
      .thenThrows('client_erasure_pending');
  });

  it('a gallery template with sample agreement text: gallery_template_copy_required, naming the field', () => {
    const gallery = snapshot({
      fields1: [
        field('f1', 'short_text'),
        field('sig', 'signature', { label: 'Agreement', config: { is_sample_text: true } }),
      ],
    });
    const error = given()
      .when(createCommand({ template: { source: 'gallery', snapshot: gallery } }))
      .thenThrows('gallery_template_copy_required', { field_id: 'sig', step_id: 's1' });
    expect(error.message).toContain('"Agreement"');
    // The team's own template with the same text is created (the send checks it later).
    given()
      .when(createCommand({ template: { source: 'team', snapshot: gallery } }))
      .thenTypes(['onboarding_created']);
  });
});

/** The client signs the agreement of step s1. */
function signed(minutes = 4): OnboardingEvent {
  return {
    type: 'signature.signed',
    data: {
      ...base,
      step_id: 's1',
      field_id: 'sig',
      signature_id: 'sg',
      signer_name: 'A',
      signer_email: 'a@example.com',
      signer_role: 'client',
      member_id: null,
      signed_at: at(minutes).toISOString(),
    },
  };
}

function completedEvents(): OnboardingEvent[] {
  const events = [...inProgress, answered('f1', 's1'), signed()];
  const submit: OnboardingCommand = {
    type: 'SubmitStep',
    data: { token_hash: 'hash-1', step_id: 's1' },
    metadata: { now: at(50) },
  };
  return [...events, ...onboardingDecider.decide(submit, fold(onboardingDecider, events))];
}

function createdExpiring(): OnboardingEvent {
  const event = created();
  if (event.type !== 'onboarding_created') throw new Error('unreachable');
  return { ...event, data: { ...event.data, expires_at: at(60).toISOString() } };
}

function expiredEvents(): OnboardingEvent[] {
  const events = [createdExpiring(), sent(1, 'draft')];
  return [
    ...events,
    ...onboardingDecider.decide(
      { type: 'ExpireOnboarding', data: {}, metadata: { now: at(60) } },
      fold(onboardingDecider, events),
    ),
  ];
}
