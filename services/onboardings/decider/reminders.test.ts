import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import { onboardingDecider, type OnboardingCommand, type OnboardingState } from './index.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { desiredTimers } from '../onboarding-timers.ts';
import type { ReminderRule } from '../contract/reminder-schedule.ts';
import { at, CLIENT, created, facts, ONBOARDING, snapshot, T0, TEAM, TEMPLATE } from './test-fixtures.ts';

/** The onboarding's reminder schedule: copied from the team at creation, used at each send, following the due date. */

const DAY = 86_400_000;
const schedule: ReminderRule[] = [
  { when: 'after_send', days: 2 },
  { when: 'before_due', days: 3 },
  { when: 'after_due', days: 1 },
];
const due = (iso: string) => ({ due_date: iso, due_on: null, due_timezone: null });

const create = (
  reminder_schedule: ReminderRule[] | undefined,
  dueDate: string | null,
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
    due: dueDate ? due(dueDate) : null,
    expires_at: null,
    ...(reminder_schedule ? { reminder_schedule } : {}),
  },
  metadata: { now: T0 },
});

const send = (now: Date): OnboardingCommand => ({
  type: 'SendOnboarding',
  data: { team_id: TEAM, token_hash: `hash-${now.getTime()}`, pin: null, force: false, facts: facts() },
  metadata: { now },
});

const setDue = (dueDate: string | null, now: Date): OnboardingCommand => ({
  type: 'UpdateOnboarding',
  data: { team_id: TEAM, due: dueDate ? due(dueDate) : null },
  metadata: { now },
});

const given = DeciderSpecification.for(onboardingDecider);

/** The commands one after another, each decided on the events before it. */
function run(commands: OnboardingCommand[], history: OnboardingEvent[] = []) {
  const events = [...history];
  for (const command of commands) events.push(...given(events).when(command).events());
  return { events, state: given(events).state as Exclude<OnboardingState, { status: 'absent' }> };
}

const plus = (from: Date, days: number) => new Date(from.getTime() + days * DAY).toISOString();
const DUE = '2025-03-24T17:00:00.000Z';

describe('reminder schedule of an onboarding', () => {
  it('is copied from the team at creation into the event, and used at each send', () => {
    const sentAt = at(10);
    const { events, state } = run([create(schedule, DUE), send(sentAt)]);
    expect(events[0]?.type === 'onboarding_created' && events[0].data.reminder_schedule).toEqual(schedule);
    expect(state.reminders_at).toEqual([plus(sentAt, 2), plus(new Date(DUE), -3), plus(new Date(DUE), 1)]);
    expect(desiredTimers(state).filter((timer) => timer.kind === 'reminder')).toEqual(
      state.reminders_at.map((due_at) => ({ key: `reminder:1:${due_at}`, kind: 'reminder', due_at })),
    );
  });

  it('an onboarding created before teams chose a schedule (no schedule in its event) keeps 3 and 7 days after send', () => {
    const sentAt = at(10);
    const { state } = run([send(sentAt)], [created()]);
    expect(state.reminders_at).toEqual([plus(sentAt, 3), plus(sentAt, 7)]);
  });

  it('due-relative reminders follow a new due date; past times drop out', () => {
    const sentAt = at(10);
    const later = '2025-04-10T17:00:00.000Z';
    const fiveDaysOn = new Date(sentAt.getTime() + 5 * DAY);
    const { events, state } = run([create(schedule, DUE), send(sentAt), setDue(later, fiveDaysOn)]);
    const updated = events.at(-1);
    // The after-send reminder (day 2) is past: it is not listed again.
    expect(updated?.type === 'onboarding_updated' && updated.data.reminders_at).toEqual([
      plus(new Date(later), -3),
      plus(new Date(later), 1),
    ]);
    expect(state.reminders_at).toEqual([plus(new Date(later), -3), plus(new Date(later), 1)]);
  });

  it('clearing the due date leaves only after-send reminders; setting one adds due-relative ones', () => {
    const sentAt = at(10);
    const cleared = run([create(schedule, DUE), send(sentAt), setDue(null, at(20))]).state;
    expect(cleared.reminders_at).toEqual([plus(sentAt, 2)]);
    const set = run([create(schedule, null), send(sentAt), setDue(DUE, at(20))]).state;
    expect(set.reminders_at).toEqual([plus(sentAt, 2), plus(new Date(DUE), -3), plus(new Date(DUE), 1)]);
  });

  it('a due date change of a draft carries no reminder times (they come with the send)', () => {
    const { events } = run([create(schedule, null), setDue(DUE, at(5))]);
    const updated = events.at(-1);
    expect(updated?.type === 'onboarding_updated' && 'reminders_at' in updated.data).toBe(false);
  });

  it('an empty schedule sends no reminders', () => {
    expect(run([create([], DUE), send(at(10))]).state.reminders_at).toEqual([]);
  });
});
