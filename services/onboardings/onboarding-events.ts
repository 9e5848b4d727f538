import type { DomainEvent } from '../../shared/commands/decider.ts';
import type { TemplateContent } from '../templates/index.ts';
import type { ReminderRule } from './contract/reminder-schedule.ts';
import type { OnboardingStatus } from './contract/statuses.ts';

/** Stream of one onboarding: `onboarding-<onboarding_id>`. */
export const onboardingStreamId = (onboardingId: string) => `onboarding-${onboardingId}`;

export { CLOSED_STATUSES, ONBOARDING_STATUSES, type OnboardingStatus } from './contract/statuses.ts';

/** The template structure copied into the onboarding at creation (spec: Template snapshot). */
export type TemplateSnapshot = TemplateContent;

/**
 * A due date as the API shows it: `due_date` is an ISO timestamp with offset; `due_on` and
 * `due_timezone` are set only when it was given as a calendar date (end of that day in the
 * team's time zone).
 */
export interface Deadline {
  due_date: string;
  due_on: string | null;
  due_timezone: string | null;
}

/** A PIN is never stored: scrypt hash with a random salt per link (link-secrets.ts). */
export interface PinHash {
  salt: string;
  hash: string;
}

/**
 * Every event carries `onboarding_id` and `team_id` (the audit feed and hooks scope by
 * them). No event carries the client's name or email: those live in the client's own
 * stream and read model. Client-entered values (answers, signer names, file names) are
 * personal data; the portal engineer passes them through the per-client encryption of
 * the erasure design (the decider treats them as opaque).
 */
interface Base {
  onboarding_id: string;
  team_id: string;
}

export type OnboardingCreated = DomainEvent<
  'onboarding_created',
  Base & {
    client_id: string;
    template_id: string;
    /** `team`: one of the team's templates; `gallery`: a shared gallery template. */
    template_source: 'team' | 'gallery';
    template_snapshot: TemplateSnapshot;
    /** SHA-256 (hex) of the client access token issued at creation. */
    token_hash: string;
    due_date: string | null;
    due_on: string | null;
    due_timezone: string | null;
    expires_at: string | null;
    /**
     * The team's default reminder schedule at creation, kept for the onboarding's life.
     * Events written before teams chose a schedule lack it: they mean 3 and 7 days after send.
     */
    reminder_schedule?: ReminderRule[];
    created_at: string;
  }
>;

/**
 * Only the fields that changed (PATCH due_date and assigned_to). When the due date of a
 * sent or in-progress onboarding changes, `reminders_at` holds the link's reminder times
 * from then on (due-relative reminders follow the due date).
 */
export type OnboardingUpdated = DomainEvent<
  'onboarding_updated',
  Base & {
    changes: {
      due_date?: string | null;
      due_on?: string | null;
      due_timezone?: string | null;
      assigned_to?: string | null;
    };
    reminders_at?: string[];
    updated_at: string;
  }
>;

/** PATCH status=in_progress (only from sent). */
export type OnboardingMarkedInProgress = DomainEvent<
  'onboarding_marked_in_progress',
  Base & { from: 'sent'; marked_at: string }
>;

/** PATCH status=cancelled: the client link is deactivated, pending reminders cancelled. */
export type OnboardingCancelled = DomainEvent<
  'onboarding_cancelled',
  Base & { from: OnboardingStatus; cancelled_at: string }
>;

/**
 * A send or resend: a new link (earlier tokens deactivated) and the invite email queued.
 * `counted` is true exactly once per onboarding (its first send), with `usage_month` the
 * team's calendar month (in the team's time zone) it counts against.
 */
export type OnboardingSent = DomainEvent<
  'onboarding.sent',
  Base & {
    client_id: string;
    /** 1 for the first send, then 2, 3, ... */
    send_number: number;
    resend: boolean;
    from: 'draft' | 'sent' | 'in_progress';
    status: 'sent' | 'in_progress';
    counted: boolean;
    usage_month: string | null;
    /** First invite ever from this team to this client (the unpaid teams' 24-hour cap). */
    new_recipient: boolean;
    token_hash: string;
    /** The link's PIN: the new one, or the previous link's carried over, or null. */
    pin: PinHash | null;
    pin_changed: boolean;
    forced: boolean;
    /** Reminder emails scheduled for this link (the onboarding's reminder schedule after the send). */
    reminders_at: string[];
    sent_at: string;
  }
>;

/** The first open of the link after each send; a sent onboarding becomes in_progress. */
export type OnboardingStarted = DomainEvent<
  'onboarding.started',
  Base & {
    send_number: number;
    from: 'sent' | 'in_progress';
    status: 'in_progress';
    started_at: string;
  }
>;

/** An autosaved answer: a draft response (counts for the 5-minute active-client check). */
export type AnswerSaved = DomainEvent<
  'answer_saved',
  Base & {
    step_id: string;
    field_id: string;
    response_id: string;
    value: unknown;
    saved_at: string;
  }
>;

/** One step submitted: its answers become submitted. One event per submission. */
export type ResponseSubmitted = DomainEvent<
  'response.submitted',
  Base & {
    step_id: string;
    responses: { response_id: string; field_id: string }[];
    progress_pct: number;
    submitted_at: string;
  }
>;

/** Every required step is submitted. */
export type OnboardingCompleted = DomainEvent<
  'onboarding.completed',
  Base & { progress_pct: 100; completed_at: string }
>;

export type SignatureSigned = DomainEvent<
  'signature.signed',
  Base & {
    step_id: string;
    field_id: string;
    signature_id: string;
    signer_name: string;
    signer_email: string;
    signer_role: 'client' | 'team_member';
    member_id: string | null;
    signed_at: string;
    /** What stands behind the signature (docs/decisions/0079); absent on events written before. */
    evidence?: SignatureEvidence;
  }
>;

/**
 * A signature's evidence, left out of every public body (events feed, hooks, automation):
 * the signer's IP address and user agent (sealed with the client's key), the consent text
 * the signer agreed to (the field's agreement text), and the SHA-256 of the canonical bytes
 * of the answers signed (services/onboardings/signed-answers.ts, version `answers_version`).
 */
export interface SignatureEvidence {
  ip: string;
  user_agent: string;
  consent_text: string;
  answers_sha256: string;
  answers_version: number;
}

export type FileUploaded = DomainEvent<
  'file.uploaded',
  Base & {
    step_id: string;
    field_id: string;
    file_id: string;
    file_name: string;
    content_type: string;
    size_bytes: number;
    uploaded_at: string;
  }
>;

/**
 * The client took a file back (DELETE .../files/:file_id) before submitting its step. An
 * internal event: not public, not in the events feed, no hook; the field is no longer
 * answered once no file is left on it.
 */
export type FileRemoved = DomainEvent<
  'file_removed',
  Base & { step_id: string; field_id: string; file_id: string; removed_at: string }
>;

/** A processor-confirmed payment; a recurring subscription when `subscription_id` is set. */
export type PaymentSucceeded = DomainEvent<
  'payment.succeeded',
  Base & {
    step_id: string;
    field_id: string;
    payment_id: string;
    payment_intent_id: string;
    amount_cents: number;
    subscription_id: string | null;
    recurring: boolean;
    interval: string | null;
    paid_at: string;
  }
>;

/**
 * The payment lifecycle after payment.succeeded, and what the team records itself: internal
 * events (not public, no hooks; in the events feed under these names). Each is recorded
 * once: `record` is the processor's id of what happened (docs/decisions/0068-payments-through-stripe.md).
 */
interface PaymentFieldData extends Base {
  step_id: string;
  field_id: string;
}

/** A Checkout payment did not go through (checkout.session.async_payment_failed); the form offers another try. */
export type PaymentFailed = DomainEvent<
  'payment_failed',
  PaymentFieldData & { checkout_session_id: string; payment_intent_id: string | null; failed_at: string }
>;

/**
 * A later period of a subscription was paid (invoice.paid): on the onboarding's timeline, not
 * a second payment.succeeded (the first period's payment.succeeded stands for the subscription).
 */
export type PaymentRenewed = DomainEvent<
  'payment_renewed',
  PaymentFieldData & { subscription_id: string; invoice_id: string; amount_cents: number; paid_at: string }
>;

/** The client's subscription ended (customer.subscription.deleted); the field stays answered. */
export type PaymentSubscriptionEnded = DomainEvent<
  'payment_subscription_ended',
  PaymentFieldData & { subscription_id: string; ended_at: string }
>;

/**
 * Stripe refunded a payment (charge.refunded), in full or in part; `amount_refunded_cents` is
 * the charge's whole refunded amount so far. Shown to the team; the field stays answered.
 */
export type PaymentRefunded = DomainEvent<
  'payment_refunded',
  PaymentFieldData & {
    payment_intent_id: string;
    charge_id: string;
    amount_refunded_cents: number;
    fully_refunded: boolean;
    refunded_at: string;
  }
>;

/**
 * An owner or admin recorded money received outside Stripe (bank transfer, cash) for a
 * payment field, with a note: it answers the field like a payment. Not a payment.succeeded
 * (no processor confirmed it), so it starts no Payment received rule.
 */
export type PaymentMarkedPaid = DomainEvent<
  'payment_marked_paid',
  PaymentFieldData & {
    payment_id: string;
    amount_cents: number;
    currency: string;
    note: string;
    member_id: string;
    marked_at: string;
  }
>;

/** A draft took its template's latest version (the team fixed the template after creating the draft). */
export type OnboardingTemplateRefreshed = DomainEvent<
  'onboarding_template_refreshed',
  Base & { template_snapshot: TemplateSnapshot; member_id: string; refreshed_at: string }
>;

export type PaymentLifecycleEvent =
  PaymentFailed | PaymentRenewed | PaymentSubscriptionEnded | PaymentRefunded | PaymentMarkedPaid;

export const PAYMENT_LIFECYCLE_EVENT_TYPES = [
  'payment_failed',
  'payment_renewed',
  'payment_subscription_ended',
  'payment_refunded',
  'payment_marked_paid',
] as const satisfies readonly PaymentLifecycleEvent['type'][];

/** A sent onboarding passed its due date; once per onboarding. */
export type OnboardingOverdue = DomainEvent<
  'onboarding.overdue',
  Base & {
    due_date: string;
    due_on: string | null;
    due_timezone: string | null;
    overdue_at: string;
  }
>;

/** The link passed `expires_at`: no more answers; the onboarding is closed. */
export type OnboardingExpired = DomainEvent<
  'onboarding_expired',
  Base & { from: 'sent' | 'in_progress'; expires_at: string; expired_at: string }
>;

export type OnboardingArchived = DomainEvent<'onboarding_archived', Base & { archived_at: string }>;

/** The team took an archived onboarding back into its lists; it answers PATCH and send again. */
export type OnboardingUnarchived = DomainEvent<'onboarding_unarchived', Base & { unarchived_at: string }>;

/**
 * The team reopened a completed, cancelled or expired onboarding (the workspace): a new
 * client link and a queued invite, like a send; the onboarding is sent again, so the next
 * open records onboarding.started. Counts once more against the monthly limit
 * (`usage_month`). A passed link expiry is cleared (`expires_at` null), the answers stay.
 */
export type OnboardingReopened = DomainEvent<
  'onboarding_reopened',
  Base & {
    client_id: string;
    from: 'completed' | 'cancelled' | 'expired';
    status: 'sent';
    send_number: number;
    usage_month: string;
    new_recipient: boolean;
    token_hash: string;
    pin: PinHash | null;
    pin_changed: boolean;
    expires_at: string | null;
    reminders_at: string[];
    reopened_at: string;
    /** Approved answers the member unlocked: the client may change them again (absent before decision 0077). */
    unlocked_field_ids?: string[];
    /** Steps the client submits again: those with an answer the client may change (absent before decision 0077). */
    open_step_ids?: string[];
    /** Progress with those steps open again (absent before decision 0077). */
    progress_pct?: number;
  }
>;

/**
 * A member sent the client a reminder now (the workspace's "Send a reminder now"): the
 * reminder email is queued with the event. The member's personal message stays only in the
 * sealed email; the event says whether there was one.
 */
export type ClientReminded = DomainEvent<
  'client_reminded',
  Base & { member_id: string; send_number: number; with_message: boolean; reminded_at: string }
>;

/**
 * The signed PDF of a completed onboarding was rendered and stored (services/onboardings/
 * documents/): `sha256` of its bytes, `completed_at` of the completion it copies. An internal
 * event: not public, no hook; in the events feed under this name.
 */
export type OnboardingDocumentRendered = DomainEvent<
  'onboarding_document_rendered',
  Base & {
    document_id: string;
    completed_at: string;
    sha256: string;
    size_bytes: number;
    rendered_at: string;
  }
>;

/** The client was erased: the onboarding leaves every list and its link stops working. */
export type OnboardingClientErased = DomainEvent<
  'onboarding_client_erased',
  Base & { client_id: string; erased_at: string }
>;

/**
 * A member reviewed one submitted answer (internal events: not public, no hooks; in the
 * events feed under these names with the member as actor in the metadata). `reason` is the
 * rejection reason or the changes-requested note, null for an approval. `response_id` is the
 * answer's response id (null for a file or signature field, whose response is its file or
 * signature).
 */
interface ReviewData extends Base {
  step_id: string;
  field_id: string;
  response_id: string | null;
  member_id: string;
  reviewed_at: string;
}
export type ResponseApproved = DomainEvent<'response_approved', ReviewData>;
export type ResponseRejected = DomainEvent<'response_rejected', ReviewData & { reason: string }>;
export type ResponseChangesRequested = DomainEvent<
  'response_changes_requested',
  ReviewData & { reason: string }
>;
export type ResponseReviewed = ResponseApproved | ResponseRejected | ResponseChangesRequested;
export const REVIEW_EVENT_TYPES = [
  'response_approved',
  'response_rejected',
  'response_changes_requested',
] as const satisfies readonly ResponseReviewed['type'][];

export type OnboardingEvent =
  | ResponseApproved
  | ResponseRejected
  | ResponseChangesRequested
  | OnboardingCreated
  | OnboardingUpdated
  | OnboardingMarkedInProgress
  | OnboardingCancelled
  | OnboardingSent
  | OnboardingStarted
  | AnswerSaved
  | ResponseSubmitted
  | OnboardingCompleted
  | SignatureSigned
  | FileUploaded
  | FileRemoved
  | PaymentSucceeded
  | PaymentLifecycleEvent
  | OnboardingTemplateRefreshed
  | OnboardingOverdue
  | OnboardingExpired
  | OnboardingArchived
  | OnboardingUnarchived
  | OnboardingReopened
  | OnboardingClientErased
  | ClientReminded
  | OnboardingDocumentRendered;

export type OnboardingEventType = OnboardingEvent['type'];

/** Every event type of the onboarding stream (projections and the audit feed use it). */
export const ONBOARDING_EVENT_TYPES = [
  'onboarding_created',
  'onboarding_updated',
  'onboarding_marked_in_progress',
  'onboarding_cancelled',
  'onboarding.sent',
  'onboarding.started',
  'answer_saved',
  'response.submitted',
  'onboarding.completed',
  'signature.signed',
  'file.uploaded',
  'file_removed',
  'payment.succeeded',
  'onboarding.overdue',
  'onboarding_expired',
  'onboarding_archived',
  'onboarding_unarchived',
  'onboarding_reopened',
  'onboarding_client_erased',
  'onboarding_template_refreshed',
  'client_reminded',
  'onboarding_document_rendered',
  ...REVIEW_EVENT_TYPES,
  ...PAYMENT_LIFECYCLE_EVENT_TYPES,
] as const satisfies readonly OnboardingEventType[];

export const isOnboardingEventType = (type: string): type is OnboardingEventType =>
  (ONBOARDING_EVENT_TYPES as readonly string[]).includes(type);
