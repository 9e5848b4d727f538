import { DomainError, type Decider, unhandledEvent } from '../../shared/commands/decider.ts';
import { assertStorable, assertStorableInstant } from '../../shared/validation/safe-text.ts';
import {
  CLOSED_STATUSES,
  type Deadline,
  type OnboardingEvent,
  type OnboardingSent,
  type OnboardingStatus,
  type OnboardingUpdated,
  type PinHash,
  type TemplateSnapshot,
} from './onboarding-events.ts';
import { ACTIVE_CLIENT_WINDOW_MS } from './send-policy.ts';
import { DEFAULT_REMINDER_SCHEDULE, reminderTimes, type ReminderRule } from './reminder-schedule.ts';
import { answerProblemText } from './answer-problem-text.ts';
import { visibility, type Visibility } from '../templates/conditional-rules.ts';
import type { TemplateStep } from '../templates/template-events.ts';
import { AMOUNT_RULE_TEXT } from '../templates/payment-amount.ts';
import {
  answerProblem,
  answerShapeProblem,
  fileConfig,
  type AnswerProblem,
} from '../templates/field-catalogue.ts';
import {
  fieldsNeedingAgreementText,
  findField,
  progressPct,
  requiredPaymentFields,
  requiredStepsSubmitted,
  sampleAgreementFields,
  validAmountCents,
  type LocatedField,
} from './template-snapshot.ts';

/**
 * The onboarding aggregate (spec: States and transitions). One function per command, each
 * returning events or throwing a DomainError whose `code` is the API's error code; the
 * current time arrives in `metadata.now`. Status moves are exactly the rows of the
 * transition table plus the moves the spec leaves to the portal (README):
 *
 *   draft       --PATCH cancelled-->      cancelled
 *   sent        --PATCH cancelled-->      cancelled
 *   in_progress --PATCH cancelled-->      cancelled
 *   sent        --PATCH in_progress-->    in_progress
 *   draft       --send-->                 sent         (counts once against the monthly limit)
 *   sent        --send-->                 sent         (resend)
 *   in_progress --send-->                 in_progress  (resend; force when the client is active)
 *   sent        --first open after send-> in_progress  (onboarding.started)
 *   in_progress --last required step-->   completed    (onboarding.completed)
 *   sent, in_progress --expires_at passed--> expired
 */

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
}

export type OnboardingState = { status: 'absent' } | Onboarding;

export interface FieldReview {
  status: 'approved' | 'rejected' | 'changes_requested';
  reason: string | null;
}

/** A reviewed answer the client may change and resubmit (rejected or changes requested). */
export const isOpenReview = (review: FieldReview | undefined) =>
  review !== undefined && review.status !== 'approved';

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
  };
};
export type EraseClient = Meta & { type: 'EraseClient'; data: Record<string, never> };
export type MarkOverdue = Meta & { type: 'MarkOverdue'; data: Record<string, never> };
export type ExpireOnboarding = Meta & { type: 'ExpireOnboarding'; data: Record<string, never> };

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
  | ApproveAnswer
  | RejectAnswer
  | RequestChanges
  | ArchiveOnboarding
  | UnarchiveOnboarding
  | ReopenOnboarding
  | EraseClient
  | MarkOverdue
  | ExpireOnboarding;

const iso = (date: Date) => date.toISOString();
const base = (state: Onboarding) => ({ onboarding_id: state.id, team_id: state.team_id });

/** The error texts of the API (codes map to statuses in the route's error table). */
export const ERROR_TEXTS = {
  target_unavailable: 'Onboarding not found',
  invalid_state: 'This change is not allowed in the current status of the onboarding',
  template_missing: 'Template not found',
  client_scope_missing: 'Client not found',
  client_erasure_pending: 'Client has been erased',
  invalid_assignee: 'assigned_to must be a current team member ID',
  payment_plan_required: 'Your plan cannot collect payments',
  payment_not_connected: 'Connect a payment processor account before sending a form with a required payment',
  sending_paused: 'Sending is paused for this workspace',
  recipient_cap_reached: 'Daily new-recipient limit reached',
  limit_reached: 'Monthly onboarding limit reached',
  requires_force:
    'The client saved an answer in the last 5 minutes; send again with force set to true to replace their link',
  link_inactive: 'This link is no longer active',
  field_not_found: 'Field not found',
  step_not_found: 'Step not found',
  file_not_found: 'File not found',
  answer_locked: 'This answer was approved and can no longer be changed',
  not_reviewable: 'Only a submitted answer can be reviewed',
} as const;

const fail = (code: keyof typeof ERROR_TEXTS, details?: Record<string, unknown>) =>
  new DomainError(code, ERROR_TEXTS[code], details);

const fieldError = (code: string, text: string, field: LocatedField) =>
  new DomainError(code, text, { field_id: field.field.id, step_id: field.step_id });

/** The onboarding as an API command of its team sees it: absent, another team's and archived are not found. */
function requireForApi(state: OnboardingState, teamId: string): Onboarding {
  if (state.status === 'absent' || state.team_id !== teamId || state.archived_at !== null) {
    throw fail('target_unavailable');
  }
  return state;
}

function requireExisting(state: OnboardingState): Onboarding {
  if (state.status === 'absent') throw fail('target_unavailable');
  return state;
}

/** A portal command: the token must be the active one of an open, live link. */
function requireLink(state: OnboardingState, tokenHash: string, now: Date): Onboarding {
  if (state.status === 'absent' || activeTokenHash(state, now) !== tokenHash) throw fail('link_inactive');
  return state;
}

/**
 * The token hash of the onboarding's link when that link works for the client now (the
 * portal's rule): the active token of an onboarding that is not archived, not erased,
 * not cancelled or expired, and whose expires_at has not passed by the service clock.
 */
export function activeTokenHash(state: OnboardingState, now: Date): string | null {
  if (
    state.status === 'absent' ||
    state.token_hash === null ||
    state.archived_at !== null ||
    state.client_erased_at !== null ||
    state.status === 'cancelled' ||
    state.status === 'expired' ||
    linkExpired(state, now)
  ) {
    return null;
  }
  return state.token_hash;
}

const linkExpired = (state: Onboarding, now: Date) =>
  state.expires_at !== null && now.getTime() >= Date.parse(state.expires_at);

function requireAnswering(state: Onboarding): void {
  if (state.status !== 'in_progress') throw fail('invalid_state', { status: state.status });
}

/**
 * The client may change a field's answer: while answering, any field not approved; once
 * completed, only the fields the team sent back (rejected or changes requested).
 */
function requireChangeable(state: Onboarding, fieldId: string): void {
  const review = Object.hasOwn(state.reviews, fieldId) ? state.reviews[fieldId] : undefined;
  if (review?.status === 'approved') throw fail('answer_locked', { field_id: fieldId });
  if (state.status === 'completed' && isOpenReview(review)) return;
  if (state.status === 'completed') throw fail('invalid_state', { status: state.status });
  requireAnswering(state);
}

/** The fields of a step the team sent back to the client. */
const openFieldsOf = (state: Onboarding, step: TemplateStep) =>
  step.fields.filter(
    (field) => Object.hasOwn(state.reviews, field.id) && isOpenReview(state.reviews[field.id]),
  );

function requireField(state: Onboarding, fieldId: string): LocatedField {
  const field = findField(state.snapshot, fieldId);
  if (!field) throw fail('field_not_found');
  return field;
}

function create(command: CreateOnboarding, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  if (state.status !== 'absent') throw new DomainError('onboarding_exists', 'Onboarding already exists');
  if (data.template === null) throw fail('template_missing');
  if (data.client === 'missing') throw fail('client_scope_missing');
  if (data.client === 'erased') throw fail('client_erasure_pending');
  if (data.template.source === 'gallery') {
    const sample = sampleAgreementFields(data.template.snapshot)[0];
    if (sample) {
      throw fieldError(
        'gallery_template_copy_required',
        `Signature field "${sample.field.label}" still holds the gallery template's sample agreement text; copy the template and write your own agreement first`,
        sample,
      );
    }
  }
  return [
    {
      type: 'onboarding_created',
      data: {
        onboarding_id: data.onboarding_id,
        team_id: data.team_id,
        client_id: data.client_id,
        template_id: data.template_id,
        template_source: data.template.source,
        template_snapshot: data.template.snapshot,
        token_hash: data.token_hash,
        due_date: data.due?.due_date ?? null,
        due_on: data.due?.due_on ?? null,
        due_timezone: data.due?.due_timezone ?? null,
        expires_at: data.expires_at,
        reminder_schedule: (data.reminder_schedule ?? DEFAULT_REMINDER_SCHEDULE).map((rule) => ({ ...rule })),
        created_at: iso(metadata.now),
      },
    },
  ];
}

/** PATCH accepts only cancelled or in_progress; the table allows these moves and no others. */
const PATCH_MOVES: Readonly<Record<'cancelled' | 'in_progress', ReadonlySet<OnboardingStatus>>> = {
  cancelled: new Set(['draft', 'sent', 'in_progress']),
  in_progress: new Set(['sent']),
};

function update(command: UpdateOnboarding, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireForApi(state, data.team_id);
  if (onboarding.client_erased_at !== null) throw fail('target_unavailable');
  if (data.assignee && data.assignee.member_id !== null && !data.assignee.is_current_member) {
    throw fail('invalid_assignee');
  }
  if (data.status && !PATCH_MOVES[data.status].has(onboarding.status)) {
    throw fail('invalid_state', { status: onboarding.status, requested: data.status });
  }
  const now = iso(metadata.now);
  const events: OnboardingEvent[] = [];
  const changes: OnboardingUpdated['data']['changes'] = {};
  if (data.due !== undefined) {
    const next = data.due ?? { due_date: null, due_on: null, due_timezone: null };
    const current = onboarding.due ?? { due_date: null, due_on: null, due_timezone: null };
    if (
      next.due_date !== current.due_date ||
      next.due_on !== current.due_on ||
      next.due_timezone !== current.due_timezone
    ) {
      Object.assign(changes, next);
    }
  }
  if (data.assignee && data.assignee.member_id !== onboarding.assigned_to) {
    changes.assigned_to = data.assignee.member_id;
  }
  if (Object.keys(changes).length > 0) {
    const reminders =
      'due_date' in changes ? remindersAfterDueChange(onboarding, changes, metadata.now) : undefined;
    events.push({
      type: 'onboarding_updated',
      data: {
        ...base(onboarding),
        changes,
        ...(reminders ? { reminders_at: reminders } : {}),
        updated_at: now,
      },
    });
  }
  if (data.status === 'cancelled') {
    events.push({
      type: 'onboarding_cancelled',
      data: { ...base(onboarding), from: onboarding.status, cancelled_at: now },
    });
  } else if (data.status === 'in_progress') {
    events.push({
      type: 'onboarding_marked_in_progress',
      data: { ...base(onboarding), from: 'sent', marked_at: now },
    });
  }
  return events;
}

/**
 * A new due date moves the due-relative reminders of a live link: the schedule is worked
 * out again from the latest send, the new due date and now, so times already past (sent
 * or not) drop out and are never sent late. Undefined when no link is waiting on reminders.
 */
function remindersAfterDueChange(
  onboarding: Onboarding,
  changes: OnboardingUpdated['data']['changes'],
  now: Date,
): string[] | undefined {
  if (onboarding.status !== 'sent' && onboarding.status !== 'in_progress') return undefined;
  if (onboarding.last_sent_at === null) return undefined;
  const dueAt = changes.due_date ? new Date(changes.due_date) : null;
  return reminderTimes(onboarding.reminder_schedule, new Date(onboarding.last_sent_at), dueAt, now);
}

/**
 * The send checks in this order (README): 404 target_unavailable (missing, another team's,
 * archived), 410 client_erasure_pending / 404 client_scope_missing, 409 invalid_state
 * (closed), then the spec's six checks (invalid_payment, payment_plan_required,
 * payment_not_connected, agreement_text_required, sending_paused / recipient_cap_reached,
 * limit_reached), and last 409 requires_force: the table's condition reads "all send
 * checks pass and (no answer saved in last 5 minutes, or force is true)".
 */
function send(command: SendOnboarding, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const { facts } = data;
  const onboarding = requireForApi(state, data.team_id);
  if (onboarding.client_erased_at !== null || facts.client === 'erased') throw fail('client_erasure_pending');
  if (facts.client === 'missing') throw fail('client_scope_missing');
  if (CLOSED_STATUSES.has(onboarding.status)) throw fail('invalid_state', { status: onboarding.status });
  const from = onboarding.status as 'draft' | 'sent' | 'in_progress';
  assertSendable(onboarding, facts);
  const counts = !onboarding.counted;
  if (counts && facts.monthly_limit !== 'unlimited' && facts.monthly_used >= facts.monthly_limit) {
    throw fail('limit_reached');
  }
  if (from === 'in_progress' && !data.force && clientActive(onboarding, metadata.now)) {
    throw fail('requires_force');
  }

  const sentAt = metadata.now;
  const event: OnboardingSent = {
    type: 'onboarding.sent',
    data: {
      ...base(onboarding),
      client_id: onboarding.client_id,
      send_number: onboarding.send_count + 1,
      resend: onboarding.send_count > 0,
      from,
      status: from === 'in_progress' ? 'in_progress' : 'sent',
      counted: counts,
      usage_month: counts ? facts.usage_month : null,
      new_recipient: facts.new_recipient,
      token_hash: data.token_hash,
      pin: data.pin ?? onboarding.pin,
      pin_changed: data.pin !== null,
      forced: data.force,
      reminders_at: reminderTimes(
        onboarding.reminder_schedule,
        sentAt,
        onboarding.due ? new Date(onboarding.due.due_date) : null,
        sentAt,
      ),
      sent_at: iso(sentAt),
    },
  };
  return [event];
}

/**
 * The spec's send checks that do not depend on the monthly count (payments, the agreement
 * text, sending paused, the new-recipient cap): a send and a reopen both pass them.
 */
function assertSendable(onboarding: Onboarding, facts: SendFacts): void {
  const payments = requiredPaymentFields(onboarding.snapshot);
  const badAmount = payments.find((field) => !validAmountCents(field.field.config['amount_cents']));
  if (badAmount) {
    throw fieldError(
      'invalid_payment',
      `Payment field "${badAmount.field.label}" needs an amount that is ${AMOUNT_RULE_TEXT}`,
      badAmount,
    );
  }
  if (payments.length > 0 && !facts.plan_can_collect_payments) throw fail('payment_plan_required');
  if (payments.length > 0 && !facts.payments_connected) throw fail('payment_not_connected');
  const agreement = fieldsNeedingAgreementText(onboarding.snapshot)[0];
  if (agreement) {
    throw fieldError(
      'agreement_text_required',
      `Signature field "${agreement.field.label}" needs its own agreement text before sending`,
      agreement,
    );
  }
  if (facts.sending_paused) throw fail('sending_paused');
  if (facts.unpaid && facts.new_recipient && facts.new_recipients_last_24h >= facts.new_recipient_cap) {
    throw fail('recipient_cap_reached');
  }
}

/** The client saved an answer within the last 5 minutes. */
export function clientActive(onboarding: Onboarding, now: Date): boolean {
  if (onboarding.last_answer_saved_at === null) return false;
  return now.getTime() - Date.parse(onboarding.last_answer_saved_at) < ACTIVE_CLIENT_WINDOW_MS;
}

function openLink(command: OpenLink, state: OnboardingState): OnboardingEvent[] {
  const onboarding = requireLink(state, command.data.token_hash, command.metadata.now);
  if (onboarding.started_since_send) return [];
  if (onboarding.status !== 'sent' && onboarding.status !== 'in_progress') return [];
  return [
    {
      type: 'onboarding.started',
      data: {
        ...base(onboarding),
        send_number: onboarding.send_count,
        from: onboarding.status,
        status: 'in_progress',
        started_at: iso(command.metadata.now),
      },
    },
  ];
}

function saveAnswer(command: SaveAnswer, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireLink(state, data.token_hash, metadata.now);
  const field = requireField(onboarding, data.field_id);
  requireChangeable(onboarding, field.field.id);
  const entered = 'entered_value' in data ? data.entered_value : data.value;
  const earlier = Object.hasOwn(onboarding.answers, field.field.id)
    ? onboarding.answers[field.field.id]
    : undefined;
  // The first change after a rejection or a request for changes is a new version with its
  // own response id: the reviewed version stays a response of its own (rejection_reason).
  const newVersion = earlier?.submitted === true && isOpenReview(onboarding.reviews[field.field.id]);
  const shape = answerShapeProblem(field.field, entered);
  if (shape) throw problemError(answerProblemText(field.field.label, shape), field, shape);
  return [
    {
      type: 'answer_saved',
      data: {
        ...base(onboarding),
        step_id: field.step_id,
        field_id: field.field.id,
        response_id: newVersion ? data.response_id : (earlier?.response_id ?? data.response_id),
        value: data.value,
        saved_at: iso(metadata.now),
      },
    },
  ];
}

/**
 * Every field of the step keeps the catalogue's answer rules (required included); a file,
 * signature or payment field is answered by its own event. The first problem names the
 * refusal; details list them all.
 */
function stepProblems(
  onboarding: Onboarding,
  step: TemplateStep,
  values: SubmitStep['data']['values'],
  shown: Visibility,
) {
  const fulfilled = new Set(onboarding.fulfilled_fields);
  return step.fields.flatMap((field) => {
    if (!shown.fieldShown(field.id)) return [];
    const answer = Object.hasOwn(onboarding.answers, field.id) ? onboarding.answers[field.id] : undefined;
    const value = !answer
      ? null
      : values && Object.hasOwn(values, field.id)
        ? values[field.id]
        : answer.value;
    const problem = answerProblem(field, value, fulfilled.has(field.id));
    return problem ? [{ field, problem }] : [];
  });
}

/**
 * What the client sees (conditional rules): a hidden field is not required, a hidden step
 * not needed. Rules read the opened values the command carries, a file, signature or
 * payment field counts as answered once fulfilled.
 */
function shownFor(onboarding: Onboarding, values: SubmitStep['data']['values']): Visibility {
  const fulfilled = new Set(onboarding.fulfilled_fields);
  return visibility(onboarding.snapshot, (fieldId) => {
    if (fulfilled.has(fieldId)) return true;
    return values && Object.hasOwn(values, fieldId) ? values[fieldId] : null;
  });
}

function submitStep(command: SubmitStep, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireLink(state, data.token_hash, metadata.now);
  const step = onboarding.snapshot.steps.find((candidate) => candidate.id === data.step_id);
  if (onboarding.status === 'completed') {
    // A resubmission of the answers the team sent back; the onboarding stays completed.
    if (!step) throw fail('step_not_found');
    if (openFieldsOf(onboarding, step).length === 0)
      throw fail('invalid_state', { status: onboarding.status });
  } else {
    requireAnswering(onboarding);
  }
  if (!step) throw fail('step_not_found');
  const shown = shownFor(onboarding, data.values);
  const problems = stepProblems(onboarding, step, data.values, shown);
  const first = problems[0];
  if (first) {
    throw new DomainError('invalid_body', answerProblemText(first.field.label, first.problem), {
      field_id: first.field.id,
      step_id: step.id,
      problem: first.problem,
      problems: problems.map(({ field, problem }) => ({ field_id: field.id, problem })),
    });
  }
  const submitted = new Set([...onboarding.submitted_steps, step.id]);
  const complete = requiredStepsSubmitted(onboarding.snapshot, submitted, shown.stepShown);
  const now = iso(metadata.now);
  const events: OnboardingEvent[] = [
    {
      type: 'response.submitted',
      data: {
        ...base(onboarding),
        step_id: step.id,
        // Approved answers stay approved: they are not submitted again.
        responses: step.fields.flatMap((field) => {
          const answer = onboarding.answers[field.id];
          if (onboarding.reviews[field.id]?.status === 'approved') return [];
          return answer ? [{ response_id: answer.response_id, field_id: field.id }] : [];
        }),
        progress_pct: complete ? 100 : progressPct(onboarding.snapshot, submitted, shown.stepShown),
        submitted_at: now,
      },
    },
  ];
  if (complete && onboarding.status !== 'completed') {
    events.push({
      type: 'onboarding.completed',
      data: { ...base(onboarding), progress_pct: 100, completed_at: now },
    });
  }
  return events;
}

/** A client signs while answering; a team member countersigns an onboarding in progress or completed. */
function signField(command: SignField, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  let onboarding: Onboarding;
  if (data.signer.role === 'client') {
    onboarding = requireLink(state, data.signer.token_hash, metadata.now);
    requireChangeable(onboarding, data.field_id);
  } else {
    onboarding = requireExisting(state);
    if (onboarding.archived_at !== null || onboarding.client_erased_at !== null)
      throw fail('target_unavailable');
    if (onboarding.status !== 'in_progress' && onboarding.status !== 'completed') {
      throw fail('invalid_state', { status: onboarding.status });
    }
  }
  const field = requireField(onboarding, data.field_id);
  if (field.field.type !== 'signature') throw fail('field_not_found');
  return [
    {
      type: 'signature.signed',
      data: {
        ...base(onboarding),
        step_id: field.step_id,
        field_id: field.field.id,
        signature_id: data.signature_id,
        signer_name: data.signer_name,
        signer_email: data.signer_email,
        signer_role: data.signer.role,
        member_id: data.signer.role === 'team_member' ? data.signer.member_id : null,
        signed_at: iso(metadata.now),
      },
    },
  ];
}

/** A refusal of what the client sent for a field: 400 invalid_body naming the field and the problem. */
const problemError = (message: string, located: LocatedField, problem: AnswerProblem) =>
  new DomainError('invalid_body', message, {
    field_id: located.field.id,
    step_id: located.step_id,
    problem,
  });

const filesOfField = (onboarding: Onboarding, fieldId: string) =>
  Object.values(onboarding.files).filter((file) => file.field_id === fieldId).length;

/**
 * A file for a file field: its sniffed content type among the field's accepted types,
 * at most the field's number of files, at most its size (the route stops reading a
 * larger upload early; this keeps the rule whole).
 */
function uploadFile(command: UploadFile, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireLink(state, data.token_hash, metadata.now);
  requireChangeable(onboarding, data.field_id);
  const field = requireField(onboarding, data.field_id);
  if (field.field.type !== 'file_upload') throw fail('field_not_found');
  const rules = fileConfig(field.field);
  if (!rules.accept.includes(data.content_type)) {
    throw problemError(`Files of type ${data.content_type} are not accepted here`, field, {
      code: 'file_type_not_accepted',
      params: { content_type: data.content_type, accept: rules.accept.join(', ') },
    });
  }
  if (filesOfField(onboarding, field.field.id) >= rules.max_files) {
    throw problemError(`At most ${rules.max_files} files can be uploaded here`, field, {
      code: 'too_many_files',
      params: { max_files: rules.max_files },
    });
  }
  if (data.size_bytes > rules.max_size_bytes) {
    throw new DomainError('payload_too_large', `File larger than ${sizeText(rules.max_size_bytes)}`, {
      field_id: field.field.id,
      step_id: field.step_id,
      problem: { code: 'file_too_large', params: { max_size_bytes: rules.max_size_bytes } },
    });
  }
  return [
    {
      type: 'file.uploaded',
      data: {
        ...base(onboarding),
        step_id: field.step_id,
        field_id: field.field.id,
        file_id: data.file_id,
        file_name: data.file_name,
        content_type: data.content_type,
        size_bytes: data.size_bytes,
        uploaded_at: iso(metadata.now),
      },
    },
  ];
}

/** A size as people read it: whole MiB when it is one, else KiB. */
export const sizeText = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${Math.ceil(bytes / 1024)} KiB`;

/** The client takes a file back while answering, before its step is submitted. */
function removeFile(command: RemoveFile, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireLink(state, data.token_hash, metadata.now);
  if (onboarding.status !== 'completed') requireAnswering(onboarding);
  const file = Object.hasOwn(onboarding.files, data.file_id) ? onboarding.files[data.file_id] : undefined;
  if (!file) throw fail('file_not_found');
  requireChangeable(onboarding, file.field_id);
  const sentBack = isOpenReview(onboarding.reviews[file.field_id]);
  if (onboarding.submitted_steps.includes(file.step_id) && !sentBack) {
    throw new DomainError('invalid_state', 'The step of this file is submitted; its files stay', {
      status: onboarding.status,
      step_id: file.step_id,
    });
  }
  return [
    {
      type: 'file_removed',
      data: {
        ...base(onboarding),
        step_id: file.step_id,
        field_id: file.field_id,
        file_id: data.file_id,
        removed_at: iso(metadata.now),
      },
    },
  ];
}

/** A processor-confirmed payment is recorded once per payment intent, whatever the status after sending. */
function recordPayment(command: RecordPayment, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireExisting(state);
  if (onboarding.archived_at !== null || onboarding.client_erased_at !== null)
    throw fail('target_unavailable');
  if (onboarding.send_count === 0) throw fail('invalid_state', { status: onboarding.status });
  const field = requireField(onboarding, data.field_id);
  if (field.field.type !== 'payment') throw fail('field_not_found');
  if (onboarding.payment_intents.includes(data.payment_intent_id)) return [];
  return [
    {
      type: 'payment.succeeded',
      data: {
        ...base(onboarding),
        step_id: field.step_id,
        field_id: field.field.id,
        payment_id: data.payment_id,
        payment_intent_id: data.payment_intent_id,
        amount_cents: data.amount_cents,
        subscription_id: data.subscription_id,
        recurring: data.subscription_id !== null,
        interval: data.interval,
        paid_at: iso(metadata.now),
      },
    },
  ];
}

const REVIEW_EVENTS = {
  ApproveAnswer: 'response_approved',
  RejectAnswer: 'response_rejected',
  RequestChanges: 'response_changes_requested',
} as const;

/** The review status of a field as the team sees it, or null when nothing is submitted to review. */
export function reviewStatus(
  onboarding: Onboarding,
  fieldId: string,
): 'submitted' | FieldReview['status'] | null {
  const review = Object.hasOwn(onboarding.reviews, fieldId) ? onboarding.reviews[fieldId] : undefined;
  if (review) return review.status;
  const field = findField(onboarding.snapshot, fieldId);
  if (!field || !onboarding.submitted_steps.includes(field.step_id)) return null;
  const answer = Object.hasOwn(onboarding.answers, fieldId) ? onboarding.answers[fieldId] : undefined;
  if (answer) return answer.submitted ? 'submitted' : null;
  return onboarding.fulfilled_fields.includes(fieldId) ? 'submitted' : null;
}

/**
 * A member approves, rejects (with a reason) or asks for changes (with a note) on one
 * submitted answer of an onboarding in progress or completed. Only a submitted answer can
 * be reviewed: a second review of the same version is refused (409 invalid_state), so of
 * two racing reviews one wins.
 */
function review(command: ReviewCommand, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireForApi(state, data.team_id);
  if (onboarding.client_erased_at !== null) throw fail('target_unavailable');
  const field = requireField(onboarding, data.field_id);
  if (onboarding.status !== 'in_progress' && onboarding.status !== 'completed') {
    throw fail('invalid_state', { status: onboarding.status });
  }
  const status = reviewStatus(onboarding, field.field.id);
  if (status !== 'submitted') {
    throw new DomainError('invalid_state', ERROR_TEXTS.not_reviewable, { field_id: field.field.id, status });
  }
  const reviewed = {
    ...base(onboarding),
    step_id: field.step_id,
    field_id: field.field.id,
    response_id: onboarding.answers[field.field.id]?.response_id ?? null,
    member_id: data.member_id,
    reviewed_at: iso(metadata.now),
  };
  if (command.type === 'ApproveAnswer') return [{ type: 'response_approved', data: reviewed }];
  const reason = command.data.reason.trim();
  if (reason.length === 0 || reason.length > REVIEW_REASON_MAX) {
    throw new DomainError('invalid_body', `reason must be 1 to ${REVIEW_REASON_MAX} characters`);
  }
  return [{ type: REVIEW_EVENTS[command.type], data: { ...reviewed, reason } }];
}

function archive(command: ArchiveOnboarding, state: OnboardingState): OnboardingEvent[] {
  const onboarding = requireExisting(state);
  if (onboarding.archived_at !== null) return [];
  return [
    { type: 'onboarding_archived', data: { ...base(onboarding), archived_at: iso(command.metadata.now) } },
  ];
}

/** Unarchiving an onboarding that is not archived decides nothing. */
function unarchive(command: UnarchiveOnboarding, state: OnboardingState): OnboardingEvent[] {
  if (state.status === 'absent' || state.team_id !== command.data.team_id) throw fail('target_unavailable');
  if (state.client_erased_at !== null) throw fail('target_unavailable');
  if (state.archived_at === null) return [];
  return [
    { type: 'onboarding_unarchived', data: { ...base(state), unarchived_at: iso(command.metadata.now) } },
  ];
}

/**
 * Reopen: only a completed, cancelled or expired onboarding (409 invalid_state otherwise),
 * not archived (404 like a send); the send checks apply, and it always counts once more
 * against the monthly limit (403 limit_reached at the limit). A link expiry already
 * passed is cleared, so the new link works.
 */
function reopen(command: ReopenOnboarding, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const { facts } = data;
  const onboarding = requireForApi(state, data.team_id);
  if (onboarding.client_erased_at !== null || facts.client === 'erased') throw fail('client_erasure_pending');
  if (facts.client === 'missing') throw fail('client_scope_missing');
  if (!CLOSED_STATUSES.has(onboarding.status)) throw fail('invalid_state', { status: onboarding.status });
  assertSendable(onboarding, facts);
  if (facts.monthly_limit !== 'unlimited' && facts.monthly_used >= facts.monthly_limit) {
    throw fail('limit_reached');
  }
  const now = metadata.now;
  return [
    {
      type: 'onboarding_reopened',
      data: {
        ...base(onboarding),
        client_id: onboarding.client_id,
        from: onboarding.status as 'completed' | 'cancelled' | 'expired',
        status: 'sent',
        send_number: onboarding.send_count + 1,
        usage_month: facts.usage_month,
        new_recipient: facts.new_recipient,
        token_hash: data.token_hash,
        pin: data.pin ?? onboarding.pin,
        pin_changed: data.pin !== null,
        expires_at: linkExpired(onboarding, now) ? null : onboarding.expires_at,
        reminders_at: reminderTimes(
          onboarding.reminder_schedule,
          now,
          onboarding.due ? new Date(onboarding.due.due_date) : null,
          now,
        ),
        reopened_at: iso(now),
      },
    },
  ];
}

function eraseClient(command: EraseClient, state: OnboardingState): OnboardingEvent[] {
  const onboarding = requireExisting(state);
  if (onboarding.client_erased_at !== null) return [];
  return [
    {
      type: 'onboarding_client_erased',
      data: { ...base(onboarding), client_id: onboarding.client_id, erased_at: iso(command.metadata.now) },
    },
  ];
}

/** A timer's move: decides nothing when it no longer applies (so a late or repeated timer is harmless). */
function markOverdue(command: MarkOverdue, state: OnboardingState): OnboardingEvent[] {
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

function expire(command: ExpireOnboarding, state: OnboardingState): OnboardingEvent[] {
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

/** Deadlines become timestamptz columns: years 1 to 9999 only (400 invalid_deadline). */
function assertStorableDeadlines(command: OnboardingCommand): void {
  if (command.type !== 'CreateOnboarding' && command.type !== 'UpdateOnboarding') return;
  assertStorableInstant(command.data.due?.due_date, 'due_date', 'invalid_deadline');
  if (command.type === 'CreateOnboarding') {
    assertStorableInstant(command.data.expires_at, 'expires_at', 'invalid_deadline');
  }
}

function decide(command: OnboardingCommand, state: OnboardingState): OnboardingEvent[] {
  assertStorable(command.data);
  assertStorableDeadlines(command);
  switch (command.type) {
    case 'CreateOnboarding':
      return create(command, state);
    case 'UpdateOnboarding':
      return update(command, state);
    case 'SendOnboarding':
      return send(command, state);
    case 'OpenLink':
      return openLink(command, state);
    case 'SaveAnswer':
      return saveAnswer(command, state);
    case 'SubmitStep':
      return submitStep(command, state);
    case 'SignField':
      return signField(command, state);
    case 'UploadFile':
      return uploadFile(command, state);
    case 'RemoveFile':
      return removeFile(command, state);
    case 'RecordPayment':
      return recordPayment(command, state);
    case 'ApproveAnswer':
    case 'RejectAnswer':
    case 'RequestChanges':
      return review(command, state);
    case 'ArchiveOnboarding':
      return archive(command, state);
    case 'UnarchiveOnboarding':
      return unarchive(command, state);
    case 'ReopenOnboarding':
      return reopen(command, state);
    case 'EraseClient':
      return eraseClient(command, state);
    case 'MarkOverdue':
      return markOverdue(command, state);
    case 'ExpireOnboarding':
      return expire(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`Unknown onboarding command ${JSON.stringify(unknown)}`);
    }
  }
}

const initialState = (): OnboardingState => ({ status: 'absent' });

function evolve(state: OnboardingState, event: OnboardingEvent): OnboardingState {
  if (event.type === 'onboarding_created') {
    const { data } = event;
    return {
      status: 'draft',
      id: data.onboarding_id,
      team_id: data.team_id,
      client_id: data.client_id,
      template_id: data.template_id,
      template_source: data.template_source,
      snapshot: data.template_snapshot,
      due:
        data.due_date === null
          ? null
          : { due_date: data.due_date, due_on: data.due_on, due_timezone: data.due_timezone },
      expires_at: data.expires_at,
      assigned_to: null,
      created_at: data.created_at,
      archived_at: null,
      client_erased_at: null,
      token_hash: data.token_hash,
      pin: null,
      send_count: 0,
      counted: false,
      last_sent_at: null,
      // Onboardings created before teams chose a schedule had the service default.
      reminder_schedule: data.reminder_schedule ?? DEFAULT_REMINDER_SCHEDULE,
      reminders_at: [],
      started_since_send: false,
      last_answer_saved_at: null,
      answers: {},
      fulfilled_fields: [],
      files: {},
      submitted_steps: [],
      reviews: {},
      progress_pct: 0,
      overdue_recorded: false,
      payment_intents: [],
    };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'onboarding_updated': {
      const { changes } = event.data;
      let due = state.due;
      if ('due_date' in changes) {
        due =
          changes.due_date == null
            ? null
            : {
                due_date: changes.due_date,
                due_on: changes.due_on ?? null,
                due_timezone: changes.due_timezone ?? null,
              };
      }
      const assigned_to = changes.assigned_to !== undefined ? changes.assigned_to : state.assigned_to;
      const reminders_at = event.data.reminders_at ?? state.reminders_at;
      return { ...state, due, assigned_to, reminders_at };
    }
    case 'onboarding_marked_in_progress':
      return { ...state, status: 'in_progress' };
    case 'onboarding_cancelled':
      return { ...state, status: 'cancelled', token_hash: null, reminders_at: [] };
    case 'onboarding.sent':
      return {
        ...state,
        status: event.data.status,
        token_hash: event.data.token_hash,
        pin: event.data.pin,
        send_count: event.data.send_number,
        counted: state.counted || event.data.counted,
        last_sent_at: event.data.sent_at,
        reminders_at: event.data.reminders_at,
        started_since_send: false,
      };
    case 'onboarding.started':
      return { ...state, status: 'in_progress', started_since_send: true };
    case 'answer_saved':
      return {
        ...state,
        last_answer_saved_at: event.data.saved_at,
        answers: {
          ...state.answers,
          [event.data.field_id]: {
            response_id: event.data.response_id,
            step_id: event.data.step_id,
            submitted: false,
            value: event.data.value,
          },
        },
      };
    case 'response.submitted': {
      const answers = { ...state.answers };
      for (const { field_id } of event.data.responses) {
        const answer = answers[field_id];
        if (answer) answers[field_id] = { ...answer, submitted: true };
      }
      const submitted_steps = state.submitted_steps.includes(event.data.step_id)
        ? state.submitted_steps
        : [...state.submitted_steps, event.data.step_id];
      // Resubmitting a step returns the answers sent back to submitted; approved ones stay.
      const reviews = Object.fromEntries(
        Object.entries(state.reviews).filter(
          ([fieldId, review]) =>
            review.status === 'approved' || !stepHasField(state, event.data.step_id, fieldId),
        ),
      );
      return { ...state, answers, submitted_steps, reviews, progress_pct: event.data.progress_pct };
    }
    case 'response_approved':
    case 'response_rejected':
    case 'response_changes_requested': {
      const status = REVIEW_STATUS_OF[event.type];
      const reason = event.type === 'response_approved' ? null : event.data.reason;
      return { ...state, reviews: { ...state.reviews, [event.data.field_id]: { status, reason } } };
    }
    case 'onboarding.completed':
      return { ...state, status: 'completed', progress_pct: 100, reminders_at: [] };
    case 'signature.signed':
      return { ...state, fulfilled_fields: addOnce(state.fulfilled_fields, event.data.field_id) };
    case 'file.uploaded':
      return {
        ...state,
        fulfilled_fields: addOnce(state.fulfilled_fields, event.data.field_id),
        files: {
          ...state.files,
          [event.data.file_id]: { field_id: event.data.field_id, step_id: event.data.step_id },
        },
      };
    case 'file_removed': {
      const { [event.data.file_id]: _removed, ...files } = state.files;
      // A file field stays answered while it holds at least one file.
      const fileLeft = Object.values(files).some((file) => file.field_id === event.data.field_id);
      return {
        ...state,
        files,
        fulfilled_fields: fileLeft
          ? state.fulfilled_fields
          : state.fulfilled_fields.filter((fieldId) => fieldId !== event.data.field_id),
      };
    }
    case 'payment.succeeded':
      return {
        ...state,
        fulfilled_fields: addOnce(state.fulfilled_fields, event.data.field_id),
        payment_intents: addOnce(state.payment_intents, event.data.payment_intent_id),
      };
    case 'onboarding.overdue':
      return { ...state, overdue_recorded: true };
    case 'onboarding_expired':
      return { ...state, status: 'expired', reminders_at: [] };
    case 'onboarding_archived':
      return { ...state, archived_at: event.data.archived_at, reminders_at: [] };
    case 'onboarding_unarchived':
      return { ...state, archived_at: null };
    case 'onboarding_reopened':
      return {
        ...state,
        status: 'sent',
        token_hash: event.data.token_hash,
        pin: event.data.pin,
        send_count: event.data.send_number,
        counted: true,
        last_sent_at: event.data.reopened_at,
        expires_at: event.data.expires_at,
        reminders_at: event.data.reminders_at,
        started_since_send: false,
      };
    case 'onboarding_client_erased':
      return { ...state, client_erased_at: event.data.erased_at, token_hash: null, reminders_at: [] };
    default:
      return unhandledEvent(event, state);
  }
}

const REVIEW_STATUS_OF = {
  response_approved: 'approved',
  response_rejected: 'rejected',
  response_changes_requested: 'changes_requested',
} as const;

const stepHasField = (state: Onboarding, stepId: string, fieldId: string) =>
  state.snapshot.steps.some(
    (step) => step.id === stepId && step.fields.some((field) => field.id === fieldId),
  );

const addOnce = (list: readonly string[], item: string) => (list.includes(item) ? list : [...list, item]);

export const onboardingDecider: Decider<OnboardingState, OnboardingCommand, OnboardingEvent> = {
  initialState,
  evolve,
  decide,
  // An autosaving client makes streams of thousands of events: keep snapshots. Bump the
  // version whenever evolve or the Onboarding state's shape changes.
  snapshot: { version: 'onboarding-2' },
};
