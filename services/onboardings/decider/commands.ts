import type { Deadline, PinHash, TemplateSnapshot } from '../onboarding-events.ts';
import type { ReminderRule } from '../contract/reminder-schedule.ts';

/** Facts the send checks read, looked up by the command handler (team settings, usage). */
export interface SendFacts {
  client: 'active' | 'erased' | 'missing';
  plan_can_collect_payments: boolean;
  payments_connected: boolean;
  sending_paused: boolean;
  unpaid: boolean;
  /** The client has never been invited by this team. */
  new_recipient: boolean;
  /** New recipients the team invited in the last 24 hours. */
  new_recipients_last_24h: number;
  new_recipient_cap: number;
  monthly_limit: number | 'unlimited';
  /** Onboardings counted in `usage_month` so far. */
  monthly_used: number;
  /** The team's current calendar month, YYYY-MM, in the team's time zone. */
  usage_month: string;
}

interface Meta {
  metadata: { now: Date };
}

export type CreateOnboarding = Meta & {
  type: 'CreateOnboarding';
  data: {
    onboarding_id: string;
    team_id: string;
    client_id: string;
    template_id: string;
    /** The template as found for the team (own or gallery, not deleted), or null. */
    template: { source: 'team' | 'gallery'; snapshot: TemplateSnapshot } | null;
    client: 'active' | 'erased' | 'missing';
    token_hash: string;
    due: Deadline | null;
    expires_at: string | null;
    /** The team's default reminder schedule now; absent means the service default. */
    reminder_schedule?: readonly ReminderRule[];
  };
};

export type UpdateOnboarding = Meta & {
  type: 'UpdateOnboarding';
  data: {
    team_id: string;
    status?: 'cancelled' | 'in_progress';
    /** undefined: unchanged; null: cleared. */
    due?: Deadline | null;
    /** undefined: unchanged; member_id null: unassign. */
    assignee?: { member_id: string | null; is_current_member: boolean };
  };
};

export type SendOnboarding = Meta & {
  type: 'SendOnboarding';
  data: {
    team_id: string;
    /** SHA-256 of the new client token. */
    token_hash: string;
    /** A new PIN, or null to carry the previous link's PIN over. */
    pin: PinHash | null;
    force: boolean;
    facts: SendFacts;
  };
};

export type OpenLink = Meta & { type: 'OpenLink'; data: { token_hash: string } };

export type SaveAnswer = Meta & {
  type: 'SaveAnswer';
  data: {
    token_hash: string;
    field_id: string;
    response_id: string;
    /** Sealed: the event carries this. */
    value: unknown;
    /**
     * The value as the client entered it (never in the event), for the storable check and
     * the answer's shape; without it `value` is checked.
     */
    entered_value?: unknown;
  };
};

export type SubmitStep = Meta & {
  type: 'SubmitStep';
  data: {
    token_hash: string;
    step_id: string;
    /**
     * The saved answers as the client entered them (opened), by field id, for the answer
     * rules and the conditional rules (which may read other steps' answers); a field of
     * the step missing here is checked with the value its event carries.
     */
    values?: Readonly<Record<string, unknown>>;
  };
};

export type SignField = Meta & {
  type: 'SignField';
  data: {
    field_id: string;
    signature_id: string;
    signer_name: string;
    signer_email: string;
    signer: { role: 'client'; token_hash: string } | { role: 'team_member'; member_id: string };
    /** The signer's name and email as entered (signer_name and signer_email are sealed), for the storable check only. */
    entered?: { signer_name: string; signer_email: string };
    /** Where the signature came from and what it signs (the decider adds the consent text). */
    evidence?: { ip: string; user_agent: string; answers_sha256: string; answers_version: number };
  };
};

export type UploadFile = Meta & {
  type: 'UploadFile';
  data: {
    token_hash: string;
    field_id: string;
    file_id: string;
    file_name: string;
    content_type: string;
    size_bytes: number;
  };
};

export type RemoveFile = Meta & {
  type: 'RemoveFile';
  data: { token_hash: string; file_id: string };
};

export type RecordPayment = Meta & {
  type: 'RecordPayment';
  data: {
    field_id: string;
    payment_id: string;
    payment_intent_id: string;
    amount_cents: number;
    subscription_id: string | null;
    interval: string | null;
  };
};

/** A Checkout payment did not go through (the Stripe webhook). */
export type RecordPaymentFailure = Meta & {
  type: 'RecordPaymentFailure';
  data: { field_id: string; checkout_session_id: string; payment_intent_id: string | null };
};

/** A later period of a subscription was paid (invoice.paid). */
export type RecordSubscriptionRenewal = Meta & {
  type: 'RecordSubscriptionRenewal';
  data: { field_id: string; subscription_id: string; invoice_id: string; amount_cents: number };
};

/** The client's subscription ended (customer.subscription.deleted). */
export type RecordSubscriptionEnd = Meta & {
  type: 'RecordSubscriptionEnd';
  data: { field_id: string; subscription_id: string };
};

/** Stripe refunded (part of) a payment (charge.refunded); the amount is the charge's total refunded. */
export type RecordRefund = Meta & {
  type: 'RecordRefund';
  data: {
    field_id: string;
    payment_intent_id: string;
    charge_id: string;
    amount_refunded_cents: number;
    fully_refunded: boolean;
  };
};

/** An owner or admin records money received outside Stripe for a payment field (the workspace). */
export type MarkPaid = Meta & {
  type: 'MarkPaid';
  data: { team_id: string; field_id: string; payment_id: string; member_id: string; note: string };
};
export const MARK_PAID_NOTE_MAX = 500;

/** A member refreshes a draft from its template's latest version, found by the route (null: deleted). */
export type RefreshTemplate = Meta & {
  type: 'RefreshTemplate';
  data: {
    team_id: string;
    member_id: string;
    template: { source: 'team' | 'gallery'; snapshot: TemplateSnapshot } | null;
  };
};

/** The due pass stored the signed PDF of the onboarding's latest completion (services/onboardings/documents/). */
export type RecordDocument = Meta & {
  type: 'RecordDocument';
  data: { document_id: string; completed_at: string; sha256: string; size_bytes: number };
};

/** A member's review of one submitted answer (the workspace; the member is the actor). */
interface ReviewData {
  team_id: string;
  field_id: string;
  member_id: string;
}
export type ApproveAnswer = Meta & { type: 'ApproveAnswer'; data: ReviewData };
/** `reason`: 1 to 2000 characters. */
export type RejectAnswer = Meta & { type: 'RejectAnswer'; data: ReviewData & { reason: string } };
/** `reason`: the note, 1 to 2000 characters. */
export type RequestChanges = Meta & { type: 'RequestChanges'; data: ReviewData & { reason: string } };
export type ReviewCommand = ApproveAnswer | RejectAnswer | RequestChanges;
export const REVIEW_REASON_MAX = 2000;
/** How many answers one send-back names at most. */
export const SEND_BACK_MAX = 100;
/** A member sends several submitted answers back to the client at once, each with its reason. */
export type SendBackAnswers = Meta & {
  type: 'SendBackAnswers';
  data: {
    team_id: string;
    member_id: string;
    answers: { field_id: string; decision: 'reject' | 'request_changes'; reason: string }[];
  };
};

export type ArchiveOnboarding = Meta & { type: 'ArchiveOnboarding'; data: Record<string, never> };
export type UnarchiveOnboarding = Meta & { type: 'UnarchiveOnboarding'; data: { team_id: string } };

/** Reopen a closed onboarding (the workspace): like a send, with the same facts. */
export type ReopenOnboarding = Meta & {
  type: 'ReopenOnboarding';
  data: {
    team_id: string;
    /** SHA-256 of the new client token. */
    token_hash: string;
    /** A new PIN, or null to carry the previous link's PIN over. */
    pin: PinHash | null;
    facts: SendFacts;
    /** A reopen: approved answers (field ids) the client may change again; the others stay approved. */
    unlock_approved?: readonly string[];
  };
};
export type EraseClient = Meta & { type: 'EraseClient'; data: Record<string, never> };
export type MarkOverdue = Meta & { type: 'MarkOverdue'; data: Record<string, never> };
export type ExpireOnboarding = Meta & { type: 'ExpireOnboarding'; data: Record<string, never> };

/**
 * A member sends the client a reminder now (the workspace). `client`: the client as the
 * route found it; `with_message`: the member wrote a personal message (it goes only into
 * the email).
 */
export type RemindClient = Meta & {
  type: 'RemindClient';
  data: {
    team_id: string;
    member_id: string;
    client: 'active' | 'erased' | 'missing';
    sending_paused: boolean;
    with_message: boolean;
  };
};
/** The longest personal message of a reminder. */
export const REMINDER_MESSAGE_MAX = 1000;

export type OnboardingCommand =
  | CreateOnboarding
  | UpdateOnboarding
  | SendOnboarding
  | OpenLink
  | SaveAnswer
  | SubmitStep
  | SignField
  | UploadFile
  | RemoveFile
  | RecordPayment
  | RecordPaymentFailure
  | RecordSubscriptionRenewal
  | RecordSubscriptionEnd
  | RecordRefund
  | MarkPaid
  | RefreshTemplate
  | ApproveAnswer
  | RejectAnswer
  | RequestChanges
  | SendBackAnswers
  | ArchiveOnboarding
  | UnarchiveOnboarding
  | ReopenOnboarding
  | EraseClient
  | MarkOverdue
  | ExpireOnboarding
  | RemindClient
  | RecordDocument;
