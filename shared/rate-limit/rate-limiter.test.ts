import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import { MemoryRateLimitStore, RateLimiter } from './rate-limiter.ts';

describe('RateLimiter (fixed 60-second windows on the service clock)', () => {
  it('allows `limit` requests per window and tells the seconds until the reset', async () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:15.000Z'));
    const limiter = new RateLimiter(new MemoryRateLimitStore(), clock);
    for (let i = 0; i < 500; i++) expect((await limiter.consume('key_ip:k:1.2.3.4', 500)).allowed).toBe(true);
    expect(await limiter.consume('key_ip:k:1.2.3.4', 500)).toEqual({
      allowed: false,
      count: 501,
      retryAfterSeconds: 45,
      windowStart: Date.parse('2030-01-01T00:00:00.000Z'),
    });
    clock.advance(44.5);
    expect(await limiter.consume('key_ip:k:1.2.3.4', 500)).toMatchObject({
      allowed: false,
      count: 502,
      retryAfterSeconds: 1,
    });
    clock.advance(0.5);
    expect(await limiter.consume('key_ip:k:1.2.3.4', 500)).toEqual({
      allowed: true,
      count: 1,
      retryAfterSeconds: 60,
      windowStart: Date.parse('2030-01-01T00:01:00.000Z'),
    });
  });

  it('releases a reservation in the window it was counted in', async () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:59.000Z'));
    const limiter = new RateLimiter(new MemoryRateLimitStore(), clock);
    const first = await limiter.consume('k', 1);
    expect(first).toMatchObject({ allowed: true, count: 1 });
    expect(await limiter.consume('k', 1)).toMatchObject({ allowed: false, count: 2 });
    await limiter.release('k', first);
    expect(await limiter.consume('k', 1)).toMatchObject({ allowed: false, count: 2 });
    clock.advance(1);
    const next = await limiter.consume('k', 1);
    await limiter.release('k', first); // an earlier window's reservation leaves this one alone
    expect(next).toMatchObject({ allowed: true, count: 1 });
    expect((await limiter.current('k')).count).toBe(1);
  });

  it('counts each key on its own', async () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:00.000Z'));
    const limiter = new RateLimiter(new MemoryRateLimitStore(), clock);
    expect((await limiter.consume('a', 1)).allowed).toBe(true);
    expect((await limiter.consume('b', 1)).allowed).toBe(true);
    expect((await limiter.consume('a', 1)).allowed).toBe(false);
  });

  it('answers Retry-After between 1 and 60 seconds', async () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:59.999Z'));
    const limiter = new RateLimiter(new MemoryRateLimitStore(), clock);
    expect((await limiter.consume('a', 0)).retryAfterSeconds).toBe(1);
    clock.set(new Date('2030-01-01T00:01:00.000Z'));
    expect((await limiter.consume('a', 0)).retryAfterSeconds).toBe(60);
  });
});
