import { ApiError } from '../../../shared/http/api-error.ts';
import type { RateLimiter } from '../../../shared/rate-limit/rate-limiter.ts';

/**
 * Rate limits of the client portal (RATE_LIMITS=off turns them off), in fixed windows of
 * one minute by the service clock, correct PINs included:
 *
 * - PORTAL_PER_IP_LIMIT requests per minute from one IP address, over every portal route,
 *   checked first (before the token is even looked up);
 * - PIN_CHECKS_PER_LINK_LIMIT PIN checks per minute on one link: every request that
 *   presents a PIN to a link with a PIN is counted before the PIN is hashed, so one link
 *   costs at most that many scrypt runs per minute, whoever sends them and whether the PIN
 *   is right or not. One a second is well above what a person filling in a form sends.
 *
 * Wrong PINs have their own, longer lockout (./portal-access.ts). A refusal is 429 in the
 * portal's form for it: `error` and `code` rate_limited, header Retry-After (seconds until
 * the window ends, 1 to 60).
 */
export const PORTAL_RATE_WINDOW_SECONDS = 60;
export const PORTAL_PER_IP_LIMIT = 300;
export const PIN_CHECKS_PER_LINK_LIMIT = 60;

export const TOO_MANY_PORTAL_REQUESTS = 'Too many requests; try again later';
export const TOO_MANY_PIN_CHECKS = 'Too many PIN checks for this link; try again later';

export const portalRateLimited = (text: string, retryAfterSeconds: number) =>
  new ApiError(429, text, {
    code: 'rate_limited',
    shape: 'code_only',
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

/** Counts one request under `key`; throws the portal's 429 when the limit is passed. */
export async function enforcePortalLimit(
  limiter: RateLimiter,
  key: string,
  limit: number,
  text: string,
): Promise<void> {
  const decision = await limiter.consume(key, limit);
  if (!decision.allowed) throw portalRateLimited(text, decision.retryAfterSeconds);
}
