import type { OnboardingEvent } from '../onboarding-events.ts';
import type { RemindClient } from './commands.ts';
import { activeTokenHash, base, fail, iso, requireForApi } from './rules.ts';
import type { Onboarding, OnboardingState } from './state.ts';

/**
 * "Send a reminder now" (docs/decisions/0076-the-clients-link-and-reminders-now.md): a
 * member reminds the client of a sent or in-progress onboarding whose link works, at most
 * REMINDER_LIMIT times in any REMINDER_WINDOW_HOURS. The limit is decided here, on the
 * stream, so the stream's lock holds it: requests at once are decided one after the other.
 * Scheduled reminders (onboarding-timers-pass.ts) do not count against it.
 */
export const REMINDER_LIMIT = 3;
export const REMINDER_WINDOW_HOURS = 24;
const WINDOW_MS = REMINDER_WINDOW_HOURS * 3_600_000;

/** How many reminder times the state keeps: the limit's worth is all the rule reads. */
export const REMINDERS_KEPT = REMINDER_LIMIT;

/** The reminders of members within the window before `now`. */
const recentReminders = (onboarding: Onboarding, now: Date) =>
  onboarding.member_reminders_at.filter((at) => now.getTime() - Date.parse(at) < WINDOW_MS);

/** When the next reminder may go: now when under the limit, else when the oldest counted one leaves the window. */
export function nextReminderAt(onboarding: Onboarding, now: Date): Date {
  const recent = recentReminders(onboarding, now);
  if (recent.length < REMINDER_LIMIT) return now;
  return new Date(Date.parse(recent[recent.length - REMINDER_LIMIT]!) + WINDOW_MS);
}

export function remindClient(command: RemindClient, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireForApi(state, data.team_id);
  if (onboarding.client_erased_at !== null || data.client === 'missing') throw fail('target_unavailable');
  if (data.client === 'erased') throw fail('client_erasure_pending');
  if (onboarding.status !== 'sent' && onboarding.status !== 'in_progress') {
    throw fail('invalid_state', { status: onboarding.status });
  }
  // Sent or in progress, yet the link's expiry passed (its timer has not run yet).
  if (activeTokenHash(onboarding, metadata.now) === null) throw fail('invalid_state', { link: 'expired' });
  if (data.sending_paused) throw fail('sending_paused');
  if (nextReminderAt(onboarding, metadata.now) > metadata.now) throw fail('reminder_limit_reached');
  return [
    {
      type: 'client_reminded',
      data: {
        ...base(onboarding),
        member_id: data.member_id,
        send_number: onboarding.send_count,
        with_message: data.with_message,
        reminded_at: iso(metadata.now),
      },
    },
  ];
}
