import { DomainError } from '../../../shared/commands/decider.ts';
import type { TemplateStep } from '../../templates/index.ts';
import type { AnswerProblem } from '../../templates/contract/field-catalogue.ts';
import { findField, type LocatedField } from '../template-snapshot.ts';
import { isOpenReview, type Onboarding, type OnboardingState } from './state.ts';

/** The checks and refusals the command groups share. */
export const iso = (date: Date) => date.toISOString();
export const base = (state: Onboarding) => ({ onboarding_id: state.id, team_id: state.team_id });

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
  document_not_found: 'The signed copy of this onboarding is not ready yet',
  answer_locked: 'This answer was approved and can no longer be changed',
  not_reviewable: 'Only a submitted answer can be reviewed',
  payment_already_received: 'This payment has already been received',
  nothing_to_reopen:
    'Every answer is approved, so the client could change nothing: choose the approved answers to unlock',
  reminder_limit_reached:
    'Three reminders were sent to this client in the last 24 hours; the next can go later',
} as const;

export const fail = (code: keyof typeof ERROR_TEXTS, details?: Record<string, unknown>) =>
  new DomainError(code, ERROR_TEXTS[code], details);

export const fieldError = (code: string, text: string, field: LocatedField) =>
  new DomainError(code, text, { field_id: field.field.id, step_id: field.step_id });

/** The onboarding as an API command of its team sees it: absent, another team's and archived are not found. */
export function requireForApi(state: OnboardingState, teamId: string): Onboarding {
  if (state.status === 'absent' || state.team_id !== teamId || state.archived_at !== null) {
    throw fail('target_unavailable');
  }
  return state;
}

export function requireExisting(state: OnboardingState): Onboarding {
  if (state.status === 'absent') throw fail('target_unavailable');
  return state;
}

/** A portal command: the token must be the active one of an open, live link. */
export function requireLink(state: OnboardingState, tokenHash: string, now: Date): Onboarding {
  if (state.status === 'absent' || activeTokenHash(state, now) !== tokenHash) throw fail('link_inactive');
  return state;
}

/**
 * The token hash of the onboarding's link when that link works for the client now (the
 * portal's rule): the active token of an onboarding that is not archived, not erased,
 * not cancelled or expired, and whose expires_at has not passed by the service clock. A
 * completed onboarding whose team sent answers back keeps its link past expires_at: the
 * client can always fix what the team asked for.
 */
export function activeTokenHash(state: OnboardingState, now: Date): string | null {
  if (
    state.status === 'absent' ||
    state.token_hash === null ||
    state.archived_at !== null ||
    state.client_erased_at !== null ||
    state.status === 'cancelled' ||
    state.status === 'expired' ||
    (linkExpired(state, now) && !sentBackAfterCompletion(state))
  ) {
    return null;
  }
  return state.token_hash;
}

/** A completed onboarding with answers the team sent back (rejected or changes requested). */
export const sentBackAfterCompletion = (state: Onboarding) =>
  state.status === 'completed' && Object.values(state.reviews).some(isOpenReview);

export const linkExpired = (state: Onboarding, now: Date) =>
  state.expires_at !== null && now.getTime() >= Date.parse(state.expires_at);

export function requireAnswering(state: Onboarding): void {
  if (state.status !== 'in_progress') throw fail('invalid_state', { status: state.status });
}

/**
 * The client may change a field's answer: while answering, any field not approved; once
 * completed, only the fields the team sent back (rejected or changes requested).
 */
export function requireChangeable(state: Onboarding, fieldId: string): void {
  const review = Object.hasOwn(state.reviews, fieldId) ? state.reviews[fieldId] : undefined;
  if (review?.status === 'approved') throw fail('answer_locked', { field_id: fieldId });
  if (state.status === 'completed' && isOpenReview(review)) return;
  if (state.status === 'completed') throw fail('invalid_state', { status: state.status });
  requireAnswering(state);
}

/** The fields of a step the team sent back to the client. */
export const openFieldsOf = (state: Onboarding, step: TemplateStep) =>
  step.fields.filter(
    (field) => Object.hasOwn(state.reviews, field.id) && isOpenReview(state.reviews[field.id]),
  );

export function requireField(state: Onboarding, fieldId: string): LocatedField {
  const field = findField(state.snapshot, fieldId);
  if (!field) throw fail('field_not_found');
  return field;
}

/** A refusal of what the client sent for a field: 400 invalid_body naming the field and the problem. */
export const problemError = (message: string, located: LocatedField, problem: AnswerProblem) =>
  new DomainError('invalid_body', message, {
    field_id: located.field.id,
    step_id: located.step_id,
    problem,
  });
