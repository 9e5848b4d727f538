import type { Translate } from '../../i18n.ts';
import { problemMessage, type Problem } from '../../problems.ts';

/** The refusals of the client and onboarding commands, by code (the API's codes). */
const BY_CODE: Record<string, string> = {
  email_taken: 'error.emailTaken',
  client_changed: 'error.clientChanged',
  link_blocked: 'error.linkBlocked',
  client_not_found: 'error.clientNotFound',
  limit_reached: 'error.limitReached',
  sending_paused: 'error.sendingPaused',
  agreement_text_required: 'error.agreementTextRequired',
  payment_plan_required: 'error.paymentPlanRequired',
  payment_not_connected: 'error.paymentNotConnected',
  invalid_payment: 'error.invalidPayment',
  recipient_cap_reached: 'error.recipientCapReached',
  invalid_state: 'error.invalidState',
  target_unavailable: 'error.targetUnavailable',
  client_erasure_pending: 'error.clientErasurePending',
  template_missing: 'error.templateMissing',
  client_scope_missing: 'error.clientScopeMissing',
  gallery_template_copy_required: 'error.galleryCopyRequired',
  invalid_assignee: 'error.invalidAssignee',
  invalid_deadline: 'error.invalidDeadline',
};

/** Pure: the words a member reads for a refused client or onboarding action. */
export function recordProblem(problem: Problem, t: Translate): string {
  const key = BY_CODE[problem.code];
  return key ? t(key) : problemMessage(problem, t);
}

/** Pure: a PIN field's value is empty (keep the PIN) or exactly 6 digits. */
export const validPin = (pin: string): boolean => pin.trim() === '' || /^\d{6}$/.test(pin.trim());
