import type { Deadline, OnboardingStatus, PinHash, TemplateSnapshot } from '../onboarding-events.ts';
import type { ReminderRule } from '../contract/reminder-schedule.ts';

/** The onboarding aggregate's state: what the decider folds from the stream. */
export interface Onboarding {
  status: OnboardingStatus;
  id: string;
  team_id: string;
  client_id: string;
  template_id: string;
  template_source: 'team' | 'gallery';
  snapshot: TemplateSnapshot;
  due: Deadline | null;
  expires_at: string | null;
  assigned_to: string | null;
  created_at: string;
  archived_at: string | null;
  client_erased_at: string | null;
  /** SHA-256 of the one active client token; null when the link is deactivated. */
  token_hash: string | null;
  pin: PinHash | null;
  send_count: number;
  /** Counted against the monthly limit (once, on the first send). */
  counted: boolean;
  last_sent_at: string | null;
  /** The team's default reminder schedule when the onboarding was created (kept for its life). */
  reminder_schedule: readonly ReminderRule[];
  /** Reminder times of the current link. */
  reminders_at: string[];
  /** The link was opened since the latest send (onboarding.started recorded). */
  started_since_send: boolean;
  last_answer_saved_at: string | null;
  /** Draft or submitted responses, by field id; `value` as the event carries it (sealed). */
  answers: Readonly<
    Record<string, { response_id: string; step_id: string; submitted: boolean; value: unknown }>
  >;
  /** Fields answered by a signature, a file or a payment. */
  fulfilled_fields: readonly string[];
  /** The client's files on the form, by file id (removed files are gone). */
  files: Readonly<Record<string, { field_id: string; step_id: string }>>;
  submitted_steps: readonly string[];
  /** The latest review of each reviewed field, until the client resubmits it (approved stays). */
  reviews: Readonly<Record<string, FieldReview>>;
  progress_pct: number;
  overdue_recorded: boolean;
  payment_intents: readonly string[];
  /** What the processor told after a payment, each recorded once (see payments.ts: recordKey). */
  payment_records: readonly string[];
  /** Checkout payments that did not go through, by field id (the next Checkout is a new attempt). */
  failed_payment_attempts: Readonly<Record<string, number>>;
  /** When members sent the client a reminder now, oldest first (the latest few: decider/remind.ts). */
  member_reminders_at: readonly string[];
}

export type OnboardingState = { status: 'absent' } | Onboarding;

export interface FieldReview {
  status: 'approved' | 'rejected' | 'changes_requested';
  reason: string | null;
}

/** A reviewed answer the client may change and resubmit (rejected or changes requested). */
export const isOpenReview = (review: FieldReview | undefined) =>
  review !== undefined && review.status !== 'approved';
