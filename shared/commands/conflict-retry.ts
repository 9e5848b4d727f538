import { setTimeout as sleep } from 'node:timers/promises';
import { WrongExpectedRevisionError } from '../event-store/event-store.ts';

/**
 * How every command retries a concurrency conflict: an append whose expected revision
 * another command has just passed, a stream lock not had within its wait
 * (lock_not_available), or a deadlock or serialization failure between two commands'
 * transactions. The command reads, decides and appends again after a wait
 * drawn with "full jitter" from an exponentially growing cap, for as long as the time
 * budget lasts. Racers that collided spread out instead of colliding again in lockstep,
 * so 30 concurrent saves on one onboarding all land within about a second. A conflict
 * that outlasts the budget propagates (500 retryable, or 409 on the operator API).
 */
export interface ConflictRetryPolicy {
  /** Cap of the first wait (ms); the cap doubles with every conflict. */
  baseDelayMs: number;
  /** The cap never grows past this (ms). */
  maxDelayMs: number;
  /** No new attempt starts once this much time (ms) has passed since the first. */
  budgetMs: number;
}

export const CONFLICT_RETRY: ConflictRetryPolicy = { baseDelayMs: 4, maxDelayMs: 200, budgetMs: 3000 };

/**
 * The wait (ms) before the next attempt after the `conflicts`-th conflict, `elapsedMs` after
 * the first attempt started; null when the next attempt would start past the budget.
 * `random` is a number in [0, 1).
 */
export function conflictRetryDelay(
  conflicts: number,
  elapsedMs: number,
  random: number,
  policy: ConflictRetryPolicy = CONFLICT_RETRY,
): number | null {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, conflicts - 1));
  const delay = Math.floor(random * cap);
  return elapsedMs + delay < policy.budgetMs ? delay : null;
}

/** PostgreSQL errors that say "another transaction got in the way; run again". */
const CONFLICT_SQLSTATES = new Set(['55P03', '40P01', '40001']);

export function isConflict(error: unknown): boolean {
  if (error instanceof WrongExpectedRevisionError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONFLICT_SQLSTATES.has(code);
}

export interface RetryEnvironment {
  policy?: ConflictRetryPolicy;
  random?: () => number;
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

/** Runs `attempt` until it does not end in a concurrency conflict or the budget is spent. */
export async function retryOnConflict<T>(
  attempt: () => Promise<T>,
  {
    policy = CONFLICT_RETRY,
    random = Math.random,
    now = performance.now.bind(performance),
    sleep: wait = sleep,
  }: RetryEnvironment = {},
): Promise<T> {
  const started = now();
  for (let conflicts = 1; ; conflicts++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isConflict(error)) throw error;
      const delay = conflictRetryDelay(conflicts, now() - started, random(), policy);
      if (delay === null) throw error;
      await wait(delay);
    }
  }
}
