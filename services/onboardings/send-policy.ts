/**
 * The rules of sending that the spec leaves open, decided here (docs/decisions/0028-onboardings.md).
 * The monthly cap per plan and the plans that collect payments are in
 * services/access/contract/plans.ts (MONTHLY_ONBOARDING_CAPS, hasPayments).
 */

/** New recipients (clients never invited by the team before) an unpaid team may invite per 24 hours. */
export const DEFAULT_NEW_RECIPIENT_CAP = 10;

export const NEW_RECIPIENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A resend of an in_progress onboarding needs `force` when an answer was saved this recently. */
export const ACTIVE_CLIENT_WINDOW_MS = 5 * 60 * 1000;

// Reminder emails after each send follow the onboarding's reminder schedule
// (contract/reminder-schedule.ts; the team's default when it was created); a resend replaces them.
