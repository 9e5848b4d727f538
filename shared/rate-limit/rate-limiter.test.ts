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
    });
    clock.advance(44.5);
    expect(await limiter.consume('key_ip:k:1.2.3.4', 500)).toEqual({
      allowed: false,
      count: 502,
      retryAfterSeconds: 1,
    });
    clock.advance(0.5);
    expect(await limiter.consume('key_ip:k:1.2.3.4', 500)).toEqual({
      allowed: true,
      count: 1,
      retryAfterSeconds: 60,
    });
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
