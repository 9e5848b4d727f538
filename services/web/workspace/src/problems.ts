import type { Translate } from './i18n.ts';

/**
 * An answer that is not a success: status 0 when there was no answer (network error),
 * the API's code and message otherwise (standard error body), and Retry-After in seconds.
 */
export interface Problem {
  status: number;
  code: string;
  message: string;
  retryAfterSeconds: number | null;
}

/** Pure: true when the request may have done its work without us learning it (no answer, or 5xx). */
export function isUncertain(problem: Problem): boolean {
  return problem.status === 0 || problem.status >= 500;
}

/** Pure: whole minutes (at least 1) of a Retry-After. */
export function minutesOf(seconds: number | null): number {
  return Math.max(1, Math.ceil((seconds ?? 60) / 60));
}

const BY_CODE: Record<string, string> = {
  invalid_credentials: 'error.invalidCredentials',
  totp_invalid: 'error.totpInvalid',
  account_exists: 'error.accountExists',
  last_owner: 'error.lastOwner',
  key_limit_reached: 'error.keyLimitReached',
  reset_link_invalid: 'error.resetLinkInvalid',
  invitation_invalid: 'error.invitationInvalid',
  forbidden: 'error.forbidden',
  session_required: 'error.sessionRequired',
  csrf_token_invalid: 'error.csrf',
  api_key_inactive: 'error.keyInactive',
  api_key_not_found: 'error.keyNotFound',
  member_not_found: 'error.memberNotFound',
  api_access_plan_required: 'error.apiAccessPlanRequired',
  webhooks_plan_required: 'error.webhooksPlanRequired',
  invalid_url: 'error.invalidUrl',
  subscription_not_found: 'error.subscriptionNotFound',
  webhook_endpoint_not_found: 'error.endpointNotFound',
  delivery_not_found: 'error.deliveryNotFound',
  webhook_endpoint_exists: 'error.endpointExists',
  invalid_event_types: 'error.invalidEventTypes',
};

/** Under two minutes the wait is said in seconds, longer in minutes. */
function slowedDown(problem: Problem, t: Translate): string {
  const seconds = problem.retryAfterSeconds;
  if (seconds !== null && seconds < 120) return t('error.signInSlowedDownSeconds', { seconds });
  return t('error.signInSlowedDown', { minutes: minutesOf(seconds) });
}

/** Pure: the message a person reads for a problem. */
export function problemMessage(problem: Problem, t: Translate): string {
  if (problem.status === 0) return t('error.network');
  switch (problem.code) {
    case 'sign_in_locked':
      return t('error.signInLocked', { minutes: minutesOf(problem.retryAfterSeconds) });
    case 'sign_in_slowed_down':
    case 'sign_in_rate_limited':
      return slowedDown(problem, t);
    case 'rate_limited':
    case 'invalid_body':
      // The API's own sentence (password rules, dates, a limit and its wait) is written for people.
      return problem.message || t('error.invalid');
  }
  const key = BY_CODE[problem.code];
  if (key) return t(key);
  if (problem.status === 429)
    return t('error.signInSlowedDown', { minutes: minutesOf(problem.retryAfterSeconds) });
  if (problem.status >= 500) return t('error.server');
  return problem.message || t('error.unknown');
}
