import { describe, expect, it } from 'vitest';
import { fold } from '../../../shared/commands/decider.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { nextReminderAt, onboardingDecider, type Onboarding, type RemindClient } from './index.ts';
import {
  archived,
  at,
  base,
  cancelled,
  created,
  MEMBER,
  OTHER_TEAM,
  sent,
  started,
  TEAM,
} from './test-fixtures.ts';

/** "Send a reminder now": which onboardings take one, and at most 3 in any 24 hours. */
const given = DeciderSpecification.for(onboardingDecider);

const remind = (minutes: number, data: Partial<RemindClient['data']> = {}): RemindClient => ({
  type: 'RemindClient',
  data: {
    team_id: TEAM,
    member_id: MEMBER,
    client: 'active',
    sending_paused: false,
    with_message: false,
    ...data,
  },
  metadata: { now: at(minutes) },
});

const reminded = (minutes: number, with_message = false, send_number = 1): OnboardingEvent => ({
  type: 'client_reminded',
  data: { ...base, member_id: MEMBER, send_number, with_message, reminded_at: at(minutes).toISOString() },
});

const DAY = 24 * 60;

describe('RemindClient', () => {
  it('a sent or in-progress onboarding takes a reminder naming the member and the send', () => {
    given(created(), sent(1, 'draft'))
      .when(remind(10, { with_message: true }))
      .then([reminded(10, true)]);
    given(created(), sent(1, 'draft'), started(1, 'sent'), sent(2, 'in_progress', 3))
      .when(remind(10))
      .then([reminded(10, false, 2)]);
  });

  it('refuses in the codes the workspace puts in words', () => {
    given(created()).when(remind(10)).thenThrows('invalid_state', { status: 'draft' });
    given(created(), sent(1, 'draft'), cancelled('sent'))
      .when(remind(10))
      .thenThrows('invalid_state', { status: 'cancelled' });
    given(created(), sent(1, 'draft'), archived()).when(remind(10)).thenThrows('target_unavailable');
    given(created(), sent(1, 'draft'))
      .when(remind(10, { team_id: OTHER_TEAM }))
      .thenThrows('target_unavailable');
    given(created(), sent(1, 'draft'))
      .when(remind(10, { client: 'erased' }))
      .thenThrows('client_erasure_pending');
    given(created(), sent(1, 'draft'))
      .when(remind(10, { sending_paused: true }))
      .thenThrows('sending_paused');
  });

  it('at most 3 in any 24 hours: the fourth waits until the oldest leaves the window', () => {
    const three = [reminded(10), reminded(20), reminded(30)];
    given(created(), sent(1, 'draft'), ...three)
      .when(remind(40))
      .thenThrows('reminder_limit_reached');
    given(created(), sent(1, 'draft'), ...three)
      .when(remind(10 + DAY - 1))
      .thenThrows('reminder_limit_reached');
    given(created(), sent(1, 'draft'), ...three)
      .when(remind(10 + DAY))
      .then([reminded(10 + DAY)]);
    const state = fold(onboardingDecider, [created(), sent(1, 'draft'), ...three]) as Onboarding;
    expect(nextReminderAt(state, at(40))).toEqual(at(10 + DAY));
    expect(nextReminderAt(state, at(40 + DAY))).toEqual(at(40 + DAY));
    // The state keeps only the latest few times.
    const more = fold(onboardingDecider, [created(), sent(1, 'draft'), ...three, reminded(10 + DAY)]);
    expect((more as Onboarding).member_reminders_at).toEqual(
      [20, 30, 10 + DAY].map((minutes) => at(minutes).toISOString()),
    );
  });
});
