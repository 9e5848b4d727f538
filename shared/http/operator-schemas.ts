import { coded } from './error-schemas.ts';

/**
 * Errors every operator route can answer (for the OpenAPI document). Every route answers
 * 400 invalid_body: for a malformed body, and also for a malformed path parameter or query
 * (a team id that is not a UUID).
 */
export function operatorErrorResponses({ body = false } = {}) {
  return {
    400: coded(
      'Invalid path parameter, query or body (code invalid_body; `details.issues` names the fields)',
    ),
    401: coded('Missing or wrong admin token (code admin_token_invalid)'),
    404: coded('Not found; every operator route answers 404 while ADMIN_TOKEN is unset'),
    ...(body ? { 413: coded('Request body over 1 MiB (code payload_too_large)') } : {}),
    429: coded(
      'Too many wrong admin tokens from this IP in 15 minutes (code admin_token_rate_limited); header Retry-After',
    ),
    500: coded('Server error (retryable)'),
  };
}
