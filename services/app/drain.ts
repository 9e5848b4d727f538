import type { Platform } from '../../shared/app-deps.ts';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';
import { settleWithin } from '../../shared/work-queue/settle-within.ts';

/**
 * POST /admin/v1/work/drain: settles the service, so a test (or an operator) can look at
 * the read models, the outbox and the feed with nothing left in flight. Rounds of:
 *
 * 1. wait until every projection has applied the log up to its committed head;
 * 2. wait until every consumer (context.consumers) has handled the log up to it;
 * 3. run every due pass (context.duePasses: timers due by the service clock, ...);
 *
 * until a round runs nothing and the log head has not moved. Bounded by `timeoutMs` and
 * MAX_ROUNDS: when the work does not settle, the answer says what is still pending. The
 * bound holds for the passes too: they are told to stop at the deadline and not waited
 * for past it (a pass's requests in flight finish in the background and are recorded).
 */

export const DRAIN_TIMEOUT_MS = 30_000;
const MAX_ROUNDS = 50;

export interface DrainOutcome {
  drained: boolean;
  /** The log head everything has caught up with. */
  position: bigint;
  /** Items the due passes handled (timers fired or cancelled, ...). */
  handled: number;
  /** What had not caught up when time ran out: `projections`, consumer names, or `due_passes`. */
  pending: string[];
}

/** What a drain uses: the log, projections and consumers it waits for, the passes it runs and what they need. */
export interface DrainDeps<Deps> extends Pick<Platform, 'eventStore' | 'projections' | 'consumers'> {
  duePasses: readonly DuePass<Deps>[];
}

export async function drainWork<Deps>(
  context: Deps & DrainDeps<Deps>,
  timeoutMs = DRAIN_TIMEOUT_MS,
): Promise<DrainOutcome> {
  const deadline = Date.now() + timeoutMs;
  const remaining = () => Math.max(1, deadline - Date.now());
  const stopPasses = new AbortController();
  const timer = setTimeout(() => stopPasses.abort(), timeoutMs);
  try {
    return await drainRounds(context, deadline, remaining, stopPasses.signal);
  } finally {
    clearTimeout(timer);
    // A pass still running when the cap's wait ended first is told to stop here (the timer
    // and the wait end at about the same moment); after a full drain nothing listens.
    stopPasses.abort();
  }
}

async function drainRounds<Deps>(
  context: Deps & DrainDeps<Deps>,
  deadline: number,
  remaining: () => number,
  signal: AbortSignal,
): Promise<DrainOutcome> {
  let handled = 0;
  let head = 0n;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    head = await context.eventStore.committedHeadPosition();
    if (!(await context.projections.waitForPosition(head, remaining()))) {
      return { drained: false, position: head, handled, pending: ['projections'] };
    }
    const consumers = await context.consumers.caughtUp(head, remaining());
    if (!consumers.drained) return { drained: false, position: head, handled, pending: consumers.pending };
    let ran = 0;
    for (const pass of context.duePasses) {
      const running = pass.runDue(context, signal);
      if (!(await settleWithin(running, remaining())) || Date.now() >= deadline) {
        return { drained: false, position: head, handled, pending: ['due_passes'] };
      }
      ran += await running;
    }
    handled += ran;
    if (ran === 0 && (await context.eventStore.committedHeadPosition()) === head) {
      return { drained: true, position: head, handled, pending: [] };
    }
    if (Date.now() >= deadline) break;
  }
  return { drained: false, position: head, handled, pending: ['due_passes'] };
}
