import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../shared/logging/logger.ts';
import { startTestRedis, type TestRedis } from '../../helpers/redis-server.ts';
import { createRateLimitStores, type RateLimitStores } from '../../../shared/rate-limit/redis-store.ts';

function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger('info', stream), lines };
}

describe('Redis rate-limit store (real redis-server)', () => {
  let redis: TestRedis;
  let first: RateLimitStores;
  let second: RateLimitStores;
  let inspect: Redis;
  beforeAll(async () => {
    redis = await startTestRedis();
    first = await createRateLimitStores(redis.url, capturedLogger().logger);
    second = await createRateLimitStores(redis.url, capturedLogger().logger);
    inspect = new Redis(redis.url);
  });
  afterAll(async () => {
    inspect?.disconnect();
    await first?.close();
    await second?.close();
    await redis?.stop();
  });

  it('two clients (two instances) count one key together, per window and per limiter', async () => {
    const a = first.store('api', 60);
    const b = second.store('api', 60);
    expect(await a.increment('key:k1', 60_000)).toBe(1);
    expect(await b.increment('key:k1', 60_000)).toBe(2);
    expect(await a.peek('key:k1', 60_000)).toBe(2);
    expect(await b.increment('key:k1', 120_000)).toBe(1); // the next window starts at zero
    expect(await second.store('portal', 60).increment('key:k1', 60_000)).toBe(1); // another limiter
  });

  it('a key lives at most two windows in Redis', async () => {
    await first.store('ttl', 30).increment('ip:1', 0);
    const keys = await inspect.keys('rl:ttl*');
    expect(keys).toHaveLength(1);
    const ttl = await inspect.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});

describe('Redis that does not answer at the start', () => {
  it('the start goes on after a bounded wait, warns once, and counts in memory', async () => {
    const { logger, lines } = capturedLogger();
    const started = Date.now();
    // Port 1 on loopback: nothing listens, the connection is refused.
    const stores = await createRateLimitStores('redis://127.0.0.1:1', logger);
    try {
      expect(Date.now() - started).toBeLessThan(5000);
      const store = stores.store('api', 60);
      expect(await store.increment('ip:x', 0)).toBe(1);
      expect(await store.increment('ip:x', 0)).toBe(2);
      expect(await stores.store('portal', 60).increment('ip:x', 0)).toBe(1);
      expect(lines.filter((line) => line.includes('Redis does not answer'))).toHaveLength(1);
    } finally {
      await stores.close();
    }
  });
});
