import type { Clock } from '../clock.ts';

/**
 * Where the counters live: in this process's memory (MemoryRateLimitStore), or in Redis
 * when REDIS_URL is set, shared by every API instance (./redis-store.ts).
 */
export interface RateLimitStore {
  /** Counts one request for `key` in the window starting at `windowStart` (ms); returns the count so far. */
  increment(key: string, windowStart: number): Promise<number>;
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

  async peek(key: string, windowStart: number): Promise<number> {
    return windowStart === this.window ? (this.counts.get(key) ?? 0) : 0;
  }
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Requests counted for the key in the current window, this one included. */
  count: number;
  /** Seconds until the window resets (1 to the window length). */
  retryAfterSeconds: number;
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
    return { allowed: count <= limit, count, retryAfterSeconds };
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
