import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Pool } from '../db/pool.ts';
import type { Logger } from '../logging/logger.ts';
import { PostgresRateLimitStore } from './postgres-store.ts';
import { MemoryRateLimitStore, RateLimitUnavailableError, type RateLimitStore } from './rate-limiter.ts';

/** More than any window can count: the store only counts, the RateLimiter decides. */
const UNLIMITED_POINTS = 2 ** 31 - 1;

/** How long a Redis command may take before the request is counted in memory instead. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * The counters of one limiter in Redis (rate-limiter-flexible's RateLimiterRedis, atomic
 * INCR with expiry), so every API instance counts the same requests. The window stays the
 * RateLimiter's (aligned to the service clock): it is part of the key, and a key lives two
 * windows, then Redis drops it.
 *
 * While Redis does not answer (down, not yet connected, slower than
 * REDIS_COMMAND_TIMEOUT_MS), requests are counted in this process's memory: each instance
 * then limits on its own, which keeps a limit without making Redis a reason to refuse
 * requests. A warning is logged when that starts, and an info line when Redis answers
 * again (the counts of the outage are not carried over).
 * A store of guess limits (`failClosed`: sign-in, two-factor codes, ADMIN_TOKEN, PINs)
 * has no such fallback: while Redis does not answer, it throws RateLimitUnavailableError
 * (503, retryable), because per-instance memory counts would let a restart or a second
 * instance hand out fresh guesses.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly limiter: RateLimiterRedis;
  private readonly fallback = new MemoryRateLimitStore();

  constructor(
    client: Redis,
    prefix: string,
    windowSeconds: number,
    private readonly outage: RedisOutage,
    private readonly failClosed = false,
  ) {
    this.limiter = new RateLimiterRedis({
      storeClient: client,
      keyPrefix: `rl:${prefix}`,
      points: UNLIMITED_POINTS,
      duration: windowSeconds * 2,
      rejectIfRedisNotReady: true,
    });
  }

  async increment(key: string, windowStart: number): Promise<number> {
    try {
      const result = await this.limiter.consume(`${windowStart}:${key}`, 1);
      this.outage.ended();
      return result.consumedPoints;
    } catch (error) {
      if (error instanceof RateLimiterRes) return error.consumedPoints;
      this.outage.began(error);
      if (this.failClosed) throw new RateLimitUnavailableError();
      return this.fallback.increment(key, windowStart);
    }
  }

  async decrement(key: string, windowStart: number): Promise<number> {
    try {
      const result = await this.limiter.reward(`${windowStart}:${key}`, 1);
      this.outage.ended();
      return Math.max(0, result.consumedPoints);
    } catch (error) {
      this.outage.began(error);
      if (this.failClosed) return 0; // the reservation stays counted: never fewer than made
      return this.fallback.decrement(key, windowStart);
    }
  }

  async clear(key: string, windowStart: number): Promise<void> {
    try {
      await this.limiter.delete(`${windowStart}:${key}`);
      this.outage.ended();
    } catch (error) {
      this.outage.began(error);
      if (this.failClosed) throw new RateLimitUnavailableError();
      await this.fallback.clear(key, windowStart);
    }
  }

  async peek(key: string, windowStart: number): Promise<number> {
    try {
      const result = await this.limiter.get(`${windowStart}:${key}`);
      this.outage.ended();
      return result?.consumedPoints ?? 0;
    } catch (error) {
      this.outage.began(error);
      if (this.failClosed) throw new RateLimitUnavailableError();
      return this.fallback.peek(key, windowStart);
    }
  }
}

/** One warning when Redis stops answering and one info line when it answers again, for all stores of a client. */
export class RedisOutage {
  private down = false;

  constructor(private readonly logger: Logger) {}

  began(error: unknown): void {
    if (this.down) return;
    this.down = true;
    this.logger.warn(
      { error: error instanceof Error ? error.message : String(error) },
      'Redis does not answer: until it does, rate limits count in this instance only and guess limits (sign-in, ADMIN_TOKEN, PINs) refuse attempts with 503',
    );
  }

  ended(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info('Redis answers again: rate limits are shared again');
  }
}

/** How long the start waits for Redis before it goes on (counting in memory until Redis answers). */
export const REDIS_START_WAIT_MS = 3000;

export interface StoreOptions {
  /**
   * A guess limit (sign-in, two-factor codes, ADMIN_TOKEN, PINs): never counted in this
   * process's memory; while Redis does not answer, the store throws
   * RateLimitUnavailableError (503) instead.
   */
  failClosed?: boolean;
  /**
   * A throughput limit (requests per window, not guesses: the public API's and the portal's
   * request limits): without REDIS_URL it counts in this process's memory, so a request
   * costs no database write. Guess and abuse limits leave it unset and count in PostgreSQL.
   */
  throughput?: boolean;
}

/**
 * Where every limiter of the service keeps its counters: Redis when REDIS_URL is set, else
 * PostgreSQL (table rate_limit_counters), so guess and abuse limits hold across instances
 * and restarts; only throughput limits count in this process's memory without Redis.
 */
export interface RateLimitStores {
  /** The store of one limiter; `prefix` keeps its keys apart from the others'. */
  store(prefix: string, windowSeconds: number, options?: StoreOptions): RateLimitStore;
  close(): Promise<void>;
}

/**
 * `pool`: the database of the PostgreSQL stores, used when `redisUrl` is unset (without
 * either, the start is refused: counters are never kept in memory alone).
 */
export async function createRateLimitStores(
  redisUrl: string | undefined,
  logger: Logger,
  pool?: Pool,
): Promise<RateLimitStores> {
  if (!redisUrl) {
    if (!pool) throw new Error('rate-limit counters need REDIS_URL or a database');
    return {
      store: (prefix, windowSeconds, options = {}) =>
        options.throughput
          ? new MemoryRateLimitStore()
          : new PostgresRateLimitStore(pool, prefix, windowSeconds),
      close: async () => undefined,
    };
  }
  const client = new Redis(redisUrl, {
    // A command while disconnected fails at once (the store counts in memory) instead of queueing.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Connection errors repeat on every reconnect attempt; the stores log the outage once.
  client.on('error', () => undefined);
  const outage = new RedisOutage(logger);
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => client.once('ready', () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(resolve, REDIS_START_WAIT_MS, false).unref()),
  ]);
  if (!ready) outage.began(new Error(`no answer within ${REDIS_START_WAIT_MS} ms of the start`));
  return {
    store: (prefix, windowSeconds, options = {}) =>
      new RedisRateLimitStore(client, prefix, windowSeconds, outage, options.failClosed ?? false),
    async close() {
      client.disconnect();
    },
  };
}
