import { DomainError } from '../../../shared/commands/decider.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { findField } from '../template-snapshot.ts';
import { REVIEW_REASON_MAX, SEND_BACK_MAX, type ReviewCommand, type SendBackAnswers } from './commands.ts';
import { base, ERROR_TEXTS, fail, iso, requireField, requireForApi } from './rules.ts';
import type { FieldReview, Onboarding, OnboardingState } from './state.ts';

/** The team's review of submitted answers: approve, reject, ask for changes. */
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
export function review(command: ReviewCommand, state: OnboardingState): OnboardingEvent[] {
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

/**
 * A member sends several submitted answers back to the client in one send (reject or
 * request changes, each with its reason): one review event per answer, all or none. Each
 * answer is checked as a single review is; a field named twice, none, or more than
 * SEND_BACK_MAX are refused (400 invalid_body).
 */
export function sendBack(command: SendBackAnswers, state: OnboardingState): OnboardingEvent[] {
  const { answers, team_id, member_id } = command.data;
  if (answers.length === 0 || answers.length > SEND_BACK_MAX) {
    throw new DomainError('invalid_body', `answers must name 1 to ${SEND_BACK_MAX} answers`);
  }
  const fieldIds = new Set(answers.map((answer) => answer.field_id));
  if (fieldIds.size !== answers.length) {
    throw new DomainError('invalid_body', 'answers must name each field once');
  }
  return answers.flatMap((answer) =>
    review(
      {
        type: answer.decision === 'reject' ? 'RejectAnswer' : 'RequestChanges',
        data: { team_id, member_id, field_id: answer.field_id, reason: answer.reason },
        metadata: command.metadata,
      },
      state,
    ),
  );
}
