import { unhandledEvent } from '../../../shared/commands/decider.ts';
import type {
  FileRemoved,
  OnboardingCreated,
  OnboardingEvent,
  OnboardingUpdated,
  PaymentLifecycleEvent,
  ResponseSubmitted,
} from '../onboarding-events.ts';
import { DEFAULT_REMINDER_SCHEDULE } from '../contract/reminder-schedule.ts';
import { recordKey } from './payments.ts';
import { REMINDERS_KEPT } from './remind.ts';
import type { Onboarding, OnboardingState } from './state.ts';

export const initialState = (): OnboardingState => ({ status: 'absent' });

export function evolve(state: OnboardingState, event: OnboardingEvent): OnboardingState {
  if (event.type === 'onboarding_created') return createdState(event.data);
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'onboarding_updated':
      return updated(state, event);
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
    case 'response.submitted':
      return submitted(state, event);
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
    case 'file_removed':
      return fileRemoved(state, event);
    case 'payment.succeeded':
      return {
        ...state,
        fulfilled_fields: addOnce(state.fulfilled_fields, event.data.field_id),
        payment_intents: addOnce(state.payment_intents, event.data.payment_intent_id),
      };
    case 'payment_failed':
    case 'payment_renewed':
    case 'payment_subscription_ended':
    case 'payment_refunded':
    case 'payment_marked_paid':
      return paymentRecorded(state, event);
    case 'onboarding_template_refreshed':
      return { ...state, snapshot: event.data.template_snapshot };
    case 'onboarding_document_rendered':
      return state;
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
        ...reopenedAnswers(state, event.data),
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
    case 'client_reminded':
      return {
        ...state,
        member_reminders_at: [...state.member_reminders_at, event.data.reminded_at].slice(-REMINDERS_KEPT),
      };
    case 'onboarding_client_erased':
      return { ...state, client_erased_at: event.data.erased_at, token_hash: null, reminders_at: [] };
    default:
      return unhandledEvent(event, state);
  }
}

/** What happened to a payment after payment.succeeded, or the team's own record of one. */
function paymentRecorded(state: Onboarding, event: PaymentLifecycleEvent): Onboarding {
  const record = (key: string) => ({ ...state, payment_records: addOnce(state.payment_records, key) });
  switch (event.type) {
    case 'payment_failed': {
      const { field_id } = event.data;
      return {
        ...record(recordKey.failure(event.data.checkout_session_id)),
        failed_payment_attempts: {
          ...state.failed_payment_attempts,
          [field_id]: (state.failed_payment_attempts[field_id] ?? 0) + 1,
        },
      };
    }
    case 'payment_renewed':
      return record(recordKey.renewal(event.data.invoice_id));
    case 'payment_subscription_ended':
      return record(recordKey.subscriptionEnd(event.data.subscription_id));
    case 'payment_refunded':
      return record(recordKey.refund(event.data.charge_id, event.data.amount_refunded_cents));
    case 'payment_marked_paid':
      return { ...state, fulfilled_fields: addOnce(state.fulfilled_fields, event.data.field_id) };
  }
}

/** The state of a new onboarding: a draft with its client token, nothing answered. */
function createdState(data: OnboardingCreated['data']): Onboarding {
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
    payment_records: [],
    failed_payment_attempts: {},
    member_reminders_at: [],
  };
}

function updated(state: Onboarding, event: OnboardingUpdated): Onboarding {
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

function submitted(state: Onboarding, event: ResponseSubmitted): Onboarding {
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

/**
 * A reopen (decision 0077): the unlocked answers lose their approval and the open steps are
 * submitted again by the client. A reopen recorded before that changes neither.
 */
function reopenedAnswers(
  state: Onboarding,
  data: { unlocked_field_ids?: string[]; open_step_ids?: string[]; progress_pct?: number },
): Onboarding {
  const unlocked = new Set(data.unlocked_field_ids ?? []);
  const open = new Set(data.open_step_ids ?? []);
  return {
    ...state,
    reviews: Object.fromEntries(Object.entries(state.reviews).filter(([fieldId]) => !unlocked.has(fieldId))),
    submitted_steps: state.submitted_steps.filter((stepId) => !open.has(stepId)),
    progress_pct: data.progress_pct ?? state.progress_pct,
  };
}

function fileRemoved(state: Onboarding, event: FileRemoved): Onboarding {
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
