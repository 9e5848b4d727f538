import { MAX_RETRY_AFTER_SECONDS } from '../../shared/net/retry-after.ts';

/**
 * When queued action runs are worked (client-onboarding-api.md, Run rules 1, 6, 8). Pure
 * functions of the service clock's time:
 *
 * - The queue is worked every 5 minutes: passes fall on the multiples of 5 minutes
 *   (hh:00, hh:05, ...). A run queued when its event occurs is due at the first pass at or
 *   after that moment.
 * - A retryable failure waits 5 minutes after the pass of the failed attempt, then 10, 20,
 *   40, ... (doubling, at most 24 hours), so retries land on passes: attempt n+1 is due at
 *   pass(attempt n) + 5 min x 2^(n-1).
 * - A Retry-After of at most 1 hour (seconds or an HTTP date) is honoured: the next attempt
 *   is not before the time it names (the first pass at or after it), nor before the
 *   doubling wait. A longer Retry-After is not honoured: the doubling wait alone applies.
 * - At most 10 attempts.
 */
export const QUEUE_PASS_MS = 5 * 60 * 1000;
export const MAX_ATTEMPTS = 10;
const MAX_WAIT_MS = 24 * 60 * 60 * 1000;

/** The pass a moment belongs to (the latest pass at or before it). */
export const passOf = (at: Date) => new Date(Math.floor(at.getTime() / QUEUE_PASS_MS) * QUEUE_PASS_MS);

/** The first pass at or after a moment. */
export const passAtOrAfter = (at: Date) => new Date(Math.ceil(at.getTime() / QUEUE_PASS_MS) * QUEUE_PASS_MS);

/** The wait after the `attempts`-th failed attempt: 5 min, 10 min, 20 min, ... at most 24 h. */
export const retryWaitMs = (attempts: number) =>
  Math.min(MAX_WAIT_MS, QUEUE_PASS_MS * 2 ** Math.max(0, Math.min(attempts - 1, 20)));

/** The pass of the next attempt after the `attempts`-th attempt failed at `attemptAt`. */
export function nextAttemptAt(attemptAt: Date, attempts: number, retryAfterSeconds?: number): Date {
  const waited = passOf(attemptAt).getTime() + retryWaitMs(attempts);
  if (
    retryAfterSeconds !== undefined &&
    retryAfterSeconds >= 0 &&
    retryAfterSeconds <= MAX_RETRY_AFTER_SECONDS
  ) {
    const named = passAtOrAfter(new Date(attemptAt.getTime() + retryAfterSeconds * 1000)).getTime();
    return new Date(Math.max(waited, named));
  }
  return new Date(waited);
}
