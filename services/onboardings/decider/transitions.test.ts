import { describe, expect, it } from 'vitest';
import { fold } from '../../../shared/commands/decider.ts';
import { onboardingDecider } from './index.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { desiredTimers } from '../onboarding-timers.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import {
  CLIENT,
  answered,
  at,
  base,
  cancelled,
  created,
  sent,
  patch,
  send,
  createCommand,
  inProgress,
  completedEvents,
  expiredEvents,
} from './test-fixtures.ts';

/** The transition table (spec: States and transitions): every move it allows, and none else. */
const given = DeciderSpecification.for(onboardingDecider);

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
    expect(given(created()).when(send()).thenState().status).toBe('sent');
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
