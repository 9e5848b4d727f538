/**
 * The PostgreSQL rate-limit store (shared/rate-limit/postgres-store.ts), used for every
 * limiter when REDIS_URL is unset: one atomic upsert per count, shared by every pool (every
 * instance) on the database, old windows swept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../../../shared/db/pool.ts';
import { createLogger } from '../../../shared/logging/logger.ts';
import { PostgresRateLimitStore } from '../../../shared/rate-limit/postgres-store.ts';
import { createRateLimitStores } from '../../../shared/rate-limit/redis-store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

let database: TestDatabase;
let otherPool: Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  otherPool = createPool(database.url, 20);
});

afterAll(async () => {
  await otherPool?.end();
  await database?.drop();
});

describe('PostgreSQL rate-limit store', () => {
  it('60 concurrent increments of one key, from two pools, get the counts 1 to 60, each exactly once', async () => {
    const stores = [
      new PostgresRateLimitStore(database.pool, 'signin_failures', 900),
      new PostgresRateLimitStore(otherPool, 'signin_failures', 900),
    ];
    const counts = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        stores[index % 2]!.increment('signin_email:a@example.com', 900_000),
      ),
    );
    expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
    expect(await stores[0]!.peek('signin_email:a@example.com', 900_000)).toBe(60);
  });

  it('decrements give counts back, never below zero; windows and limiters count apart', async () => {
    const store = new PostgresRateLimitStore(database.pool, 'admin_token', 60);
    expect(await store.increment('ip:1', 60_000)).toBe(1);
    expect(await store.increment('ip:1', 60_000)).toBe(2);
    expect(await store.decrement('ip:1', 60_000)).toBe(1);
    expect(await store.decrement('ip:1', 60_000)).toBe(0);
    expect(await store.decrement('ip:1', 60_000)).toBe(0);
    expect(await store.decrement('never-counted', 60_000)).toBe(0);
    expect(await store.increment('ip:1', 120_000)).toBe(1); // the next window starts at zero
    expect(await new PostgresRateLimitStore(database.pool, 'portal', 60).increment('ip:1', 60_000)).toBe(1);
    expect(await store.peek('ip:1', 60_000)).toBe(0);
    expect(await store.peek('ip:1', 180_000)).toBe(0);
  });

  it('a new window sweeps rows past their two windows', async () => {
    const store = new PostgresRateLimitStore(database.pool, 'sweep', 60);
    await store.increment('old', 1_000_000_000_000);
    const later = 1_000_000_000_000 + 3 * 60_000;
    await store.increment('new', later);
    const deadline = Date.now() + 5000;
    let keys: string[];
    do {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { rows } = await database.pool.query<{ key: string }>(
        `select key from rate_limit_counters where key like 'sweep:%' order by key`,
      );
      keys = rows.map((row) => row.key);
    } while (keys.includes('sweep:old') && Date.now() < deadline);
    expect(keys).toEqual(['sweep:new']);
  });

  it('createRateLimitStores without REDIS_URL hands out PostgreSQL stores; without a database it refuses', async () => {
    const stores = await createRateLimitStores(undefined, createLogger('silent'), database.pool);
    const store = stores.store('api', 60, { failClosed: true });
    expect(store).toBeInstanceOf(PostgresRateLimitStore);
    expect(await store.increment('ip:9', 60_000)).toBe(1);
    expect(await new PostgresRateLimitStore(otherPool, 'api', 60).peek('ip:9', 60_000)).toBe(1);
    await stores.close();
    await expect(createRateLimitStores(undefined, createLogger('silent'))).rejects.toThrow(
      'rate-limit counters need REDIS_URL or a database',
    );
  });
});
