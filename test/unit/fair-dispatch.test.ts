import { describe, expect, it } from 'vitest';
import { workInLanes } from '../../shared/work-queue/lanes.ts';

/*
 * The lanes of a delivery pass: a slow item holds one lane, not the pass; work that falls
 * due while items are in flight is claimed within the poll interval; a stop signal ends
 * the claiming, and the items in flight are still finished.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('workInLanes', () => {
  it('claims into free lanes while a slow item is in flight, and picks up work that falls due meanwhile', async () => {
    const queue = ['slow', 'a', 'b'];
    const finished: string[] = [];
    const claimedSlots: number[] = [];
    setTimeout(() => queue.push('late'), 100);
    const worked = await workInLanes<string>({
      claim: async (slots) => {
        claimedSlots.push(slots);
        return queue.splice(0, Math.min(slots, 2));
      },
      work: async (item) => {
        await sleep(item === 'slow' ? 400 : 10);
        finished.push(item);
      },
      lanes: 3,
      pollMs: 20,
      budgetMs: 5_000,
    });
    expect(worked).toBe(4);
    expect(finished).toEqual(['a', 'b', 'late', 'slow']);
    expect(Math.max(...claimedSlots)).toBeLessThanOrEqual(3);
  });

  it('stops claiming when the signal is aborted and returns after the items in flight are done', async () => {
    const stop = new AbortController();
    let claims = 0;
    const finished: number[] = [];
    const worked = await workInLanes<number>({
      claim: async () => {
        claims++;
        if (claims === 1) setTimeout(() => stop.abort(), 50);
        return [claims];
      },
      work: async (item) => {
        await sleep(item === 1 ? 200 : 5);
        finished.push(item);
      },
      lanes: 1,
      pollMs: 10,
      budgetMs: 60_000,
      signal: stop.signal,
    });
    expect(claims).toBe(1);
    expect(worked).toBe(1);
    expect(finished).toEqual([1]);
  });

  it('stops claiming once the budget is spent', async () => {
    let claims = 0;
    const started = Date.now();
    await workInLanes<number>({
      claim: async () => [++claims],
      work: async () => {
        await sleep(30);
      },
      lanes: 1,
      pollMs: 10,
      budgetMs: 100,
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(claims).toBeGreaterThan(1);
    expect(claims).toBeLessThan(10);
  });
});
