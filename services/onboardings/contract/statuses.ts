/**
 * The statuses of an onboarding and of one answer, as the APIs show them. Pure: the
 * service's schemas and the workspace's filters and badges share these lists.
 */
export const ONBOARDING_STATUSES = [
  'draft',
  'sent',
  'in_progress',
  'completed',
  'cancelled',
  'expired',
] as const;
export type OnboardingStatus = (typeof ONBOARDING_STATUSES)[number];

/** Closed onboardings cannot be sent, answered or moved again. */
export const CLOSED_STATUSES: ReadonlySet<OnboardingStatus> = new Set(['completed', 'cancelled', 'expired']);

/** Where one answer stands in its review (GET /workspace/v1/onboardings/:id/answers). */
export const ANSWER_STATUSES = ['draft', 'submitted', 'approved', 'rejected', 'changes_requested'] as const;
export type AnswerStatus = (typeof ANSWER_STATUSES)[number];
