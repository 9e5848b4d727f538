import { describe, expect, it } from 'vitest';
import { fold } from '../../../shared/commands/decider.ts';
import { onboardingDecider, type OnboardingCommand } from './index.ts';
import { desiredTimers } from '../onboarding-timers.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import {
  answered,
  archived,
  at,
  cancelled,
  created,
  sent,
  started,
  open,
  inProgress,
  completedEvents,
  createdExpiring,
  expiredEvents,
} from './test-fixtures.ts';

/** The client answers through the link: open it, save answers, submit steps. */
const given = DeciderSpecification.for(onboardingDecider);

describe('portal moves: open, answer, submit', () => {
  it('the first open after each send records onboarding.started; sent becomes in_progress', () => {
    expect(given(created(), sent(1, 'draft')).when(open('hash-1')).thenState().status).toBe('in_progress');
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
        .thenState().status,
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
});
