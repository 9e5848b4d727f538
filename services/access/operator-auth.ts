import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, codedError } from '../../shared/http/api-error.ts';
import type { RateLimiter } from '../../shared/rate-limit/rate-limiter.ts';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Bearer tokens presented from one IP per window (wrong ones, and right ones in flight). */
export const ADMIN_TOKEN_GUESS_LIMIT = 50;
/** The window of ADMIN_TOKEN_GUESS_LIMIT (fixed, aligned to the service clock). */
export const ADMIN_TOKEN_GUESS_WINDOW_SECONDS = 15 * 60;

function guessesRefused(retryAfterSeconds: number): ApiError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const text = `Too many wrong admin tokens from your address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  return new ApiError(429, text, {
    code: 'admin_token_rate_limited',
    shape: 'full',
    retryable: true,
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

/**
 * onRequest hook of every operator route (`Authorization: Bearer <ADMIN_TOKEN>`):
 * - ADMIN_TOKEN unset: 404, the same answer as an unknown path (the operator API does
 *   not exist);
 * - header missing or not Bearer: 401 code `admin_token_invalid` (no token was tried);
 * - a Bearer token reserves a guess of its IP before it is compared (`guesses`, a guess
 *   limit in Redis or PostgreSQL): over ADMIN_TOKEN_GUESS_LIMIT in the window, 429 code
 *   `admin_token_rate_limited` with Retry-After, even for the right token; a wrong token
 *   keeps its guess counted (401 `admin_token_invalid`), the right one gives it back.
 */
export function operatorTokenCheck(token: string | undefined, guesses?: RateLimiter) {
  const expected = token === undefined ? undefined : digest(token);
  return async function checkOperatorToken(request: FastifyRequest, reply: FastifyReply) {
    if (expected === undefined) {
      reply.callNotFound();
      return reply;
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match) throw codedError(401, 'admin_token_invalid', 'Invalid or missing admin token');
    const key = `admin_token_ip:${request.ip}`;
    const guess = guesses ? await guesses.consume(key, ADMIN_TOKEN_GUESS_LIMIT) : undefined;
    const right = timingSafeEqual(digest(match[1]!), expected);
    if (guess && right) await guesses!.release(key, guess);
    if (guess && !guess.allowed) throw guessesRefused(guess.retryAfterSeconds);
    if (!right) throw codedError(401, 'admin_token_invalid', 'Invalid or missing admin token');
  };
}
