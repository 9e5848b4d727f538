import type { Pool } from '../db/pool.ts';
import type { RateLimitStore } from './rate-limiter.ts';

/** Expired rows deleted by one sweep at most (a sweep runs when a new window begins). */
const SWEEP_BATCH = 5000;

/**
 * The counters of one limiter in PostgreSQL (table rate_limit_counters, migration 121),
 * for a service without REDIS_URL: every instance on the database and every restart counts
 * the same requests. An increment is one statement, INSERT ... ON CONFLICT DO UPDATE ...
 * RETURNING: the row lock orders concurrent increments, so 60 at once get the counts 1 to
 * 60, each once. The window stays the RateLimiter's (aligned to the service clock): it is
 * part of the key, and a row lives two windows. When a new window begins, this store
 * deletes expired rows (of every limiter) in one small batch, off the request's path.
 *
 * A database error is thrown: the request fails as any request does without its database
 * (503 service_unavailable), so no limit is ever skipped.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  private readonly windowMs: number;
  private lastSweptWindow = -1;

  constructor(
    private readonly pool: Pool,
    private readonly prefix: string,
    windowSeconds: number,
  ) {
    this.windowMs = windowSeconds * 1000;
  }

  async increment(key: string, windowStart: number): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>(
      `insert into rate_limit_counters (key, window_start, count, expires_at) values ($1, $2, 1, $3)
       on conflict (key, window_start) do update set count = rate_limit_counters.count + 1
       returning count`,
      [this.key(key), windowStart, windowStart + 2 * this.windowMs],
    );
    this.sweep(windowStart);
    return rows[0]!.count;
  }

  async decrement(key: string, windowStart: number): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>(
      `update rate_limit_counters set count = count - 1
       where key = $1 and window_start = $2 and count > 0
       returning count`,
      [this.key(key), windowStart],
    );
    return rows[0]?.count ?? 0;
  }

  async clear(key: string, windowStart: number): Promise<void> {
    await this.pool.query('delete from rate_limit_counters where key = $1 and window_start = $2', [
      this.key(key),
      windowStart,
    ]);
  }

  async peek(key: string, windowStart: number): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>(
      'select count from rate_limit_counters where key = $1 and window_start = $2',
      [this.key(key), windowStart],
    );
    return rows[0]?.count ?? 0;
  }

  private key(key: string): string {
    return `${this.prefix}:${key}`;
  }

  /** Once per window of this store: deletes a batch of rows past their expiry (by the service clock). */
  private sweep(windowStart: number): void {
    if (windowStart <= this.lastSweptWindow) return;
    this.lastSweptWindow = windowStart;
    this.pool
      .query(
        `delete from rate_limit_counters where ctid = any(array(
           select ctid from rate_limit_counters where expires_at < $1 limit ${SWEEP_BATCH}))`,
        [windowStart],
      )
      .catch(() => undefined); // the next window's sweep takes what is left
  }
}
