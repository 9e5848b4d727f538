import { codedError } from '../../../shared/http/api-error.ts';
import { registerDomainErrors } from '../../../shared/http/domain-errors.ts';
import { MAX_ACTIVE_API_KEYS } from '../team-decider.ts';

/**
 * The workspace's refusals, in the public API's full error body (error, code, message,
 * retryable, request_id).
 */
export const workspaceErrors = registerDomainErrors('workspace', {
  statuses: {
    team_not_found: 404,
    member_not_found: 404,
    invitation_not_found: 404,
    api_key_not_found: 404,
    account_not_found: 404,
    member_exists: 409,
    account_exists: 409,
    api_key_exists: 409,
    key_limit_reached: 409,
    last_owner: 409,
    totp_already_on: 409,
    totp_not_started: 409,
    totp_not_on: 409,
    email_already_verified: 409,
  },
  defaultStatus: 400,
  special: (error) =>
    error.code === 'key_limit_reached'
      ? codedError(
          409,
          'key_limit_reached',
          `Your team already has ${MAX_ACTIVE_API_KEYS} active API keys, the most it can have. Revoke one before creating another.`,
        )
      : undefined,
  form: (error, status) => codedError(status, error.code, error.message, error.details),
});

export const forbidden = () =>
  codedError(403, 'forbidden', 'Your role in this team does not allow this action.');

export const csrfTokenInvalid = () =>
  codedError(
    403,
    'csrf_token_invalid',
    'The request lacks a valid X-CSRF-Token header; reload the page and try again.',
  );

export const crossSiteRefused = () =>
  codedError(403, 'cross_site_request', 'Requests from other sites are refused.');

export const reauthenticationRequired = () =>
  codedError(
    403,
    'reauthentication_required',
    'Confirm your password or two-factor code first (POST /workspace/v1/sessions/current/reauth); it counts for 5 minutes.',
  );

export const invalidCredentials = () =>
  codedError(401, 'invalid_credentials', 'The email or password is wrong.');

export const invalidBody = (message: string) => codedError(400, 'invalid_body', message);
