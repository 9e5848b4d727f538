import type { Clock } from '../clock.ts';
import { ApiError } from '../http/api-error.ts';

/**
 * Where the counters live: in Redis when REDIS_URL is set (./redis-store.ts), else in
 * PostgreSQL (./postgres-store.ts); both shared by every instance and kept over restarts.
 * MemoryRateLimitStore (this process only) is for unit tests and for the Redis store's
 * fallback of plain request limits.
 */
export interface RateLimitStore {
  /** Counts one request for `key` in the window starting at `windowStart` (ms); returns the count so far. */
  increment(key: string, windowStart: number): Promise<number>;
  /** Gives one count back (a reservation released); never below 0; returns the count left. */
  decrement(key: string, windowStart: number): Promise<number>;
  /** Forgets every count of `key` in the window (an account's failures end with a password reset). */
  clear(key: string, windowStart: number): Promise<void>;
  /** The count so far for `key` in the window starting at `windowStart`, without counting (Redis: GET). */
  peek(key: string, windowStart: number): Promise<number>;
}

/** Counters of the current window only; a new window drops the old counters. */
export class MemoryRateLimitStore implements RateLimitStore {
  private window = -1;
  private counts = new Map<string, number>();

  async increment(key: string, windowStart: number): Promise<number> {
    if (windowStart !== this.window) {
      if (windowStart < this.window) return 1; // a clock moved back: count the request, do not reset.
      this.window = windowStart;
      this.counts = new Map();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }

  async decrement(key: string, windowStart: number): Promise<number> {
    if (windowStart !== this.window) return 0;
    const count = Math.max(0, (this.counts.get(key) ?? 0) - 1);
    this.counts.set(key, count);
    return count;
  }

  async clear(key: string, windowStart: number): Promise<void> {
    if (windowStart === this.window) this.counts.delete(key);
  }

  async peek(key: string, windowStart: number): Promise<number> {
    return windowStart === this.window ? (this.counts.get(key) ?? 0) : 0;
  }
}

/**
 * The counters of a guess limit (sign-in, two-factor codes, ADMIN_TOKEN, PINs) cannot be
 * reached (Redis down): the attempt is refused, 503 service_unavailable, retryable, rather
 * than checked without a limit.
 */
export class RateLimitUnavailableError extends ApiError {
  constructor() {
    super(503, 'Service unavailable; try again', {
      code: 'service_unavailable',
      retryable: true,
      headers: { 'retry-after': '1' },
    });
  }
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Requests counted for the key in the current window, this one included. */
  count: number;
  /** Seconds until the window resets (1 to the window length). */
  retryAfterSeconds: number;
  /** The window the request was counted in (for `release`). */
  windowStart: number;
}

/**
 * Fixed windows of `windowSeconds`, aligned to the clock (every minute starts a new
 * window for every counter), timed by the service clock so tests move a ManualClock.
 */
export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: Clock,
    private readonly windowSeconds = 60,
  ) {}

  async consume(key: string, limit: number): Promise<RateLimitDecision> {
    const now = this.clock.now().getTime();
    const windowMs = this.windowSeconds * 1000;
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const count = await this.store.increment(key, windowStart);
    const retryAfterSeconds = Math.min(
      this.windowSeconds,
      Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
    );
    return { allowed: count <= limit, count, retryAfterSeconds, windowStart };
  }

  /**
   * Gives back the count of a `consume` (in the window it was counted in): a reservation
   * taken before a check and released when the check passed.
   */
  async release(key: string, decision: RateLimitDecision): Promise<void> {
    await this.store.decrement(key, decision.windowStart);
  }

  /** Forgets the count of `key` in the current window. */
  async clear(key: string): Promise<void> {
    const windowMs = this.windowSeconds * 1000;
    await this.store.clear(key, Math.floor(this.clock.now().getTime() / windowMs) * windowMs);
  }

  /** The count of `key` in the current window and the seconds until that window ends. */
  async current(key: string): Promise<{ count: number; resetsInSeconds: number }> {
    const now = this.clock.now().getTime();
    const windowMs = this.windowSeconds * 1000;
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const count = await this.store.peek(key, windowStart);
    return { count, resetsInSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
  }
}
