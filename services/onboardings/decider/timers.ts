import type { OnboardingEvent } from '../onboarding-events.ts';
import type { ExpireOnboarding, MarkOverdue } from './commands.ts';
import { base, iso, linkExpired } from './rules.ts';
import type { OnboardingState } from './state.ts';

/** The timers' moves: overdue past the due date, expired past the link's expiry. */
/** A timer's move: decides nothing when it no longer applies (so a late or repeated timer is harmless). */
export function markOverdue(command: MarkOverdue, state: OnboardingState): OnboardingEvent[] {
  if (state.status === 'absent') return [];
  const onboarding = state;
  const { due } = onboarding;
  if (
    due === null ||
    onboarding.overdue_recorded ||
    onboarding.archived_at !== null ||
    onboarding.client_erased_at !== null ||
    (onboarding.status !== 'sent' && onboarding.status !== 'in_progress') ||
    command.metadata.now.getTime() < Date.parse(due.due_date)
  ) {
    return [];
  }
  return [
    {
      type: 'onboarding.overdue',
      data: { ...base(onboarding), ...due, overdue_at: iso(command.metadata.now) },
    },
  ];
}

export function expire(command: ExpireOnboarding, state: OnboardingState): OnboardingEvent[] {
  if (state.status === 'absent') return [];
  const onboarding = state;
  if (
    onboarding.expires_at === null ||
    onboarding.archived_at !== null ||
    onboarding.client_erased_at !== null ||
    (onboarding.status !== 'sent' && onboarding.status !== 'in_progress') ||
    !linkExpired(onboarding, command.metadata.now)
  ) {
    return [];
  }
  return [
    {
      type: 'onboarding_expired',
      data: {
        ...base(onboarding),
        from: onboarding.status,
        expires_at: onboarding.expires_at,
        expired_at: iso(command.metadata.now),
      },
    },
  ];
}
