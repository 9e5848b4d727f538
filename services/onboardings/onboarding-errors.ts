import { DomainError } from '../../shared/commands/decider.ts';
import { ApiError, codedError } from '../../shared/http/api-error.ts';
import { registerDomainErrors } from '../../shared/http/domain-errors.ts';

/**
 * HTTP status of every DomainError code of the onboarding aggregate and its commands
 * (client-onboarding-api.md, Errors; operator-and-portal-api.md for the portal codes).
 * The text is the DomainError's message (the decider's ERROR_TEXTS).
 */
export const ONBOARDING_ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_body: 400,
  invalid_deadline: 400,
  invalid_assignee: 400,
  invalid_payment: 400,
  payment_not_connected: 400,
  pin_required: 401,
  payment_plan_required: 403,
  sending_paused: 403,
  limit_reached: 403,
  target_unavailable: 404,
  template_missing: 404,
  client_scope_missing: 404,
  link_inactive: 404,
  field_not_found: 404,
  step_not_found: 404,
  file_not_found: 404,
  invalid_state: 409,
  answer_locked: 409,
  nothing_to_reopen: 409,
  payment_already_received: 409,
  payload_too_large: 413,
  requires_force: 409,
  agreement_text_required: 409,
  gallery_template_copy_required: 409,
  onboarding_exists: 409,
  client_erasure_pending: 410,
  recipient_cap_reached: 429,
  reminder_limit_reached: 429,
};

/** Codes whose body carries `details` (the field they name). */
const WITH_DETAILS = new Set([
  'agreement_text_required',
  'gallery_template_copy_required',
  'invalid_payment',
  'invalid_body',
]);

/** The onboarding feature's table: the spec's error body of a refused onboarding command. */
export const onboardingErrors = registerDomainErrors('onboardings', {
  statuses: ONBOARDING_ERROR_STATUS,
  special: (error) =>
    error.code === 'requires_force'
      ? // Exactly `error`, `code`, `requires_force`, `retryable` (client-onboarding-api.md, Errors).
        new ApiError(409, error.message, {
          code: 'requires_force',
          shape: 'code_only',
          extra: { requires_force: true, retryable: false },
        })
      : undefined,
  form: (error, status) =>
    codedError(
      status,
      error.code,
      error.message,
      WITH_DETAILS.has(error.code) && error.details ? { details: error.details } : undefined,
    ),
});

/** The spec's error body for a refused onboarding command; a code outside the table is thrown as is. */
export function onboardingApiError(error: DomainError): ApiError {
  const answer = onboardingErrors.answer(error);
  if (!answer) throw error;
  return answer;
}

/** status and body of a refused command, as the idempotency record keeps them. */
export function onboardingErrorAnswer(error: unknown, requestId: string): { status: number; body: unknown } {
  const apiError = error instanceof DomainError ? onboardingApiError(error) : error;
  if (!(apiError instanceof ApiError) || apiError.status >= 500) throw error;
  return { status: apiError.status, body: apiError.body(requestId) };
}
