import { ApiError, codedError } from './api-error.ts';
import { coded, rateLimitedSchema, text } from './error-schemas.ts';

/** The key checks of client-onboarding-api.md, Authentication (full error bodies). */
export const apiKeyRequired = () => codedError(401, 'api_key_required', 'API key required');
export const apiKeyInactive = () =>
  codedError(401, 'api_key_inactive', 'API key is invalid, revoked or expired');
export const apiKeyPlanRequired = () =>
  codedError(403, 'api_key_plan_required', 'Your plan does not include API access');
export const apiKeyScopeDenied = (scope: string) =>
  codedError(403, 'api_key_scope_denied', `API key does not have the ${scope} scope`);

/** 429: only `error` and `code`; Retry-After in seconds; no request id (the caller sets omitRequestId). */
export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, 'Rate limit exceeded', {
    code: 'rate_limited',
    shape: 'code_only',
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

/**
 * The error responses of a public route, for its schema's `response` map (and so the
 * OpenAPI document). Spread it first, then add the route's own (404, 409, ...):
 * `response: { 200: ..., ...publicErrorResponses({ body: true }), 404: text('Client not found') }`.
 * - `validation`: the shape of a 400 for a malformed body or query: 'text' (an `error`
 *   only; the default) or 'invalid_body' (the onboarding endpoints); false when the
 *   route takes no input.
 * - `body`: the route takes a body, so 413 applies.
 * - `scope`: the route requires a scope, so 403 api_key_scope_denied applies.
 */
export function publicErrorResponses({
  validation = 'text',
  body = false,
  scope = true,
}: { validation?: 'text' | 'invalid_body' | false; body?: boolean; scope?: boolean } = {}) {
  return {
    ...(validation === 'text' ? { 400: text('Invalid parameter; `error` names it') } : {}),
    ...(validation === 'invalid_body' ? { 400: coded('Malformed body or query (code invalid_body)') } : {}),
    401: coded(
      'Missing API key (code api_key_required), or invalid, revoked or expired key (api_key_inactive)',
    ),
    403: coded(
      scope
        ? 'Plan without API access (code api_key_plan_required) or scope missing (api_key_scope_denied)'
        : 'Plan without API access (code api_key_plan_required)',
    ),
    ...(body ? { 413: coded('Request body over 1 MiB (code payload_too_large)') } : {}),
    429: rateLimitedSchema,
    500: coded('Server error; retryable'),
  };
}
