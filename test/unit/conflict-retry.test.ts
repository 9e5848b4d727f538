import { describe, expect, it } from 'vitest';
import {
  CONFLICT_RETRY,
  conflictRetryDelay,
  isConflict,
  retryOnConflict,
} from '../../shared/commands/conflict-retry.ts';
import { WrongExpectedRevisionError } from '../../shared/event-store/event-store.ts';

const conflict = () => new WrongExpectedRevisionError('onboarding-x', 1n, 2n);
const policy = { baseDelayMs: 10, maxDelayMs: 100, budgetMs: 1000 };

describe('conflictRetryDelay (full-jitter exponential backoff)', () => {
  it('draws the wait from 0 up to a cap that doubles with every conflict', () => {
    expect(conflictRetryDelay(1, 0, 0, policy)).toBe(0);
    expect(conflictRetryDelay(1, 0, 0.999, policy)).toBe(9);
    expect(conflictRetryDelay(2, 0, 0.999, policy)).toBe(19);
    expect(conflictRetryDelay(3, 0, 0.5, policy)).toBe(20);
    expect(conflictRetryDelay(4, 0, 0.999, policy)).toBe(79);
  });

  it('never waits longer than the largest cap', () => {
    expect(conflictRetryDelay(10, 0, 0.999, policy)).toBe(99);
    expect(conflictRetryDelay(60, 0, 0.999, policy)).toBe(99);
  });

  it('gives up when the next attempt would start past the time budget', () => {
    expect(conflictRetryDelay(5, 900, 0.5, policy)).toBe(50);
    expect(conflictRetryDelay(5, 960, 0.5, policy)).toBeNull();
    expect(conflictRetryDelay(1, 1000, 0, policy)).toBeNull();
  });

  it('the default policy retries for 3 seconds with waits of at most 200 ms', () => {
    expect(CONFLICT_RETRY.budgetMs).toBe(3000);
    expect(conflictRetryDelay(30, 0, 0.999, CONFLICT_RETRY)).toBeLessThan(200);
  });
});

describe('isConflict', () => {
  it('is a wrong expected revision, a lock not had in time, a deadlock or a serialization failure', () => {
    expect(isConflict(conflict())).toBe(true);
    for (const code of ['55P03', '40P01', '40001']) expect(isConflict({ code })).toBe(true);
    for (const other of [new Error('boom'), { code: '23505' }, null, undefined, 'text']) {
      expect(isConflict(other)).toBe(false);
    }
  });
});

describe('retryOnConflict', () => {
  /** A fake time line: sleeping moves it. */
  function timeline() {
    let now = 0;
    const waits: number[] = [];
    return {
      waits,
      env: {
        policy,
        random: () => 0.5,
        now: () => now,
        sleep: async (ms: number) => {
          waits.push(ms);
          now += ms;
        },
      },
      advance: (ms: number) => (now += ms),
    };
  }

  it('runs again after each conflict, with growing waits, until the work succeeds', async () => {
    const time = timeline();
    let attempts = 0;
    const result = await retryOnConflict(async () => {
      attempts++;
      if (attempts < 4)
        throw attempts === 2 ? Object.assign(new Error('deadlock'), { code: '40P01' }) : conflict();
      return 'done';
    }, time.env);
    expect(result).toBe('done');
    expect(attempts).toBe(4);
    expect(time.waits).toEqual([5, 10, 20]);
  });

  it('rethrows any other error at once', async () => {
    const time = timeline();
    let attempts = 0;
    const failing = retryOnConflict(async () => {
      attempts++;
      throw new Error('boom');
    }, time.env);
    await expect(failing).rejects.toThrow('boom');
    expect(attempts).toBe(1);
    expect(time.waits).toEqual([]);
  });

  it('rethrows the conflict once the time budget is spent', async () => {
    const time = timeline();
    let attempts = 0;
    const endless = retryOnConflict(async () => {
      attempts++;
      time.advance(100); // every attempt takes 100 ms
      throw conflict();
    }, time.env);
    await expect(endless).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    // 1000 ms budget: attempts of 100 ms plus waits of at most 50 ms.
    expect(attempts).toBeGreaterThanOrEqual(7);
    expect(attempts).toBeLessThanOrEqual(10);
    const spent = attempts * 100 + time.waits.reduce((sum, wait) => sum + wait, 0);
    expect(spent).toBeLessThan(policy.budgetMs + 100);
  });
});
