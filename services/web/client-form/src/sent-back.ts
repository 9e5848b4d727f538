import type { PortalOnboarding } from './api.ts';

/**
 * The team's review of the client's answers (the portal's `reviews`): answers sent back
 * (rejected or changes requested) can be changed and submitted again; approved ones are
 * locked. A completed onboarding with answers sent back opens in its review state: only
 * those answers can change, the others are shown read-only.
 */
export type FieldReview = NonNullable<PortalOnboarding['reviews']>[number];

/** Pure: the answers sent back, by field id. */
export function sentBack(onboarding: PortalOnboarding): Map<string, FieldReview> {
  return new Map(
    (onboarding.reviews ?? [])
      .filter((review) => review.status === 'rejected' || review.status === 'changes_requested')
      .map((review) => [review.field_id, review]),
  );
}

/** Pure: a completed onboarding the client has to change answers of. */
export const inReviewState = (onboarding: PortalOnboarding) =>
  onboarding.status === 'completed' && sentBack(onboarding).size > 0;

/** Pure: the client may change this field now. */
export function changeable(onboarding: PortalOnboarding, fieldId: string): boolean {
  const review = (onboarding.reviews ?? []).find((one) => one.field_id === fieldId);
  if (review?.status === 'approved') return false;
  return !inReviewState(onboarding) || sentBack(onboarding).has(fieldId);
}

/** Pure: the steps to submit again in the review state, in the form's order. */
export function stepsToResubmit(
  steps: { id: string; fields: { id: string }[] }[],
  onboarding: PortalOnboarding,
) {
  const back = sentBack(onboarding);
  return steps.filter((step) => step.fields.some((field) => back.has(field.id))).map((step) => step.id);
}

/** Pure: the answer a link opens at (`/f/<token>?field=<field id>`, the changes-requested email's link), else null. */
export function linkedField(search: string): string | null {
  const fieldId = new URLSearchParams(search).get('field');
  return fieldId && fieldId.length <= 100 ? fieldId : null;
}

/**
 * Pure: the step a link's answer is in, when the client may change that answer now
 * (sent back, or any answer not approved while the form is open); else -1.
 */
export function linkedStep(
  steps: readonly { fields: readonly { id: string }[] }[],
  onboarding: PortalOnboarding,
  fieldId: string | null,
): number {
  if (!fieldId || !changeable(onboarding, fieldId)) return -1;
  return steps.findIndex((step) => step.fields.some((field) => field.id === fieldId));
}
