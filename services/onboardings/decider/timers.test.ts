import { describe, it } from 'vitest';
import { fold } from '../../../shared/commands/decider.ts';
import { onboardingDecider, type OnboardingCommand } from './index.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import { at, base, created, sent } from './test-fixtures.ts';

/** The timers' moves: overdue and expired. */
const given = DeciderSpecification.for(onboardingDecider);

describe('timers', () => {
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
