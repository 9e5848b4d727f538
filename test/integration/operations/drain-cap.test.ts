import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduler } from '../../../shared/work-queue/scheduler-loop.ts';
import type { DuePass } from '../../../shared/work-queue/due-pass.ts';
import { drainWork } from '../../../services/app/drain.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';

/**
 * The bounds of background work: the drain answers within its cap however long a pass
 * takes, and a stopping scheduler tells its pass to stop and waits for it only so long.
 * Either way the pass is told through its stop signal.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.stop());

/** A pass that works until it is told to stop, and then still takes `lingerMs` (requests in flight). */
function stubbornPass(lingerMs: number) {
  const seen: { signal?: AbortSignal; abortedAt?: number } = {};
  const pass: DuePass = {
    name: 'stubborn',
    runDue: (_context, signal) =>
      new Promise((resolve) => {
        seen.signal = signal;
        signal?.addEventListener('abort', () => {
          seen.abortedAt = Date.now();
          setTimeout(() => resolve(1), lingerMs).unref();
        });
      }),
  };
  return { pass, seen };
}

describe('bounded background work', () => {
  it('the drain answers within its cap and tells the pass to stop at the cap', async () => {
    const { pass, seen } = stubbornPass(60_000);
    const startedAt = Date.now();
    const outcome = await drainWork({ ...service.context, duePasses: [pass] }, 1500);
    const elapsed = Date.now() - startedAt;
    expect(outcome).toMatchObject({ drained: false, pending: ['due_passes'] });
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(2500);
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.abortedAt! - startedAt).toBeLessThan(2000);
  });

  it('a stopping scheduler aborts its pass and waits for it at most its grace', async () => {
    const { pass, seen } = stubbornPass(60_000);
    const scheduler = startScheduler({ ...service.context, duePasses: [pass] }, 60_000);
    await expect.poll(() => seen.signal !== undefined).toBe(true);
    const stoppedAt = Date.now();
    await scheduler.stop(500);
    expect(Date.now() - stoppedAt).toBeLessThan(1500);
    expect(seen.signal?.aborted).toBe(true);
  });

  it('a pass that ends soon after the stop signal is waited for', async () => {
    const { pass, seen } = stubbornPass(100);
    const scheduler = startScheduler({ ...service.context, duePasses: [pass] }, 60_000);
    await expect.poll(() => seen.signal !== undefined).toBe(true);
    let finished = false;
    void Promise.resolve().then(async () => {
      await scheduler.stop(5000);
      finished = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(finished).toBe(false);
    await expect.poll(() => finished).toBe(true);
  });
});
