import type { OnboardingState } from './decider/index.ts';

/**
 * Durable timers of one onboarding, derived from its state alone: after every command the
 * handler schedules the timers listed here and cancels scheduled ones that are not
 * (cancel, completion, expiry, archive, erasure and resends cancel reminders; a new due
 * date moves the overdue timer and the due-relative reminders). `key` is unique per
 * onboarding, so a timer that already fired is never scheduled again; a reminder's key is
 * its send and its time, so a reminder that keeps its time keeps its timer.
 */
export type TimerKind = 'reminder' | 'overdue' | 'link_expiry';

export interface DesiredTimer {
  key: string;
  kind: TimerKind;
  due_at: string;
}

export function desiredTimers(state: OnboardingState): DesiredTimer[] {
  if (state.status === 'absent' || state.archived_at !== null || state.client_erased_at !== null) return [];
  if (state.status !== 'sent' && state.status !== 'in_progress') return [];
  const timers: DesiredTimer[] = state.reminders_at.map((due_at) => ({
    key: `reminder:${state.send_count}:${due_at}`,
    kind: 'reminder',
    due_at,
  }));
  if (state.due && !state.overdue_recorded) {
    timers.push({ key: `overdue:${state.due.due_date}`, kind: 'overdue', due_at: state.due.due_date });
  }
  if (state.expires_at) {
    timers.push({ key: `link_expiry:${state.expires_at}`, kind: 'link_expiry', due_at: state.expires_at });
  }
  return timers;
}
