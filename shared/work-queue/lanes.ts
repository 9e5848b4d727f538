/**
 * The runner of a work queue's pass: works claimed items in lanes, claiming more whenever
 * a lane is free, so one slow item holds one lane rather than a whole batch. The claim
 * decides what comes first (./claim-strategies.ts); this loop only keeps the lanes busy.
 *
 * - A claim asks for `batch` items, or as many as lanes are free; items beyond the free
 *   lanes wait in the pass's backlog and start as lanes free up.
 * - While items are in flight and nothing more could be claimed, it looks again every
 *   `pollMs`, so work that falls due meanwhile (another team's item) starts within that
 *   time instead of after the slowest one.
 * - It stops starting items once `budgetMs` has passed or `signal` is aborted (the
 *   scheduler's stop, the drain's cap), then waits for the items in flight and releases
 *   the claimed items it did not start (`release`): a pass always ends with its attempts
 *   recorded, and whatever is left is due for the next pass or the next start.
 */

export interface Lanes<T> {
  /** Claims at most `slots` items; none when nothing can be claimed now. */
  claim(slots: number): Promise<T[]>;
  /** Works one item; records its own outcome and failures (a rejection is ignored). */
  work(item: T): Promise<void>;
  /** Gives back claimed items that were not started (their leases cleared). */
  release?(items: T[]): Promise<void>;
  lanes: number;
  /** Items asked for at each claim; defaults to the free lanes. */
  batch?: number;
  pollMs: number;
  budgetMs: number;
  signal?: AbortSignal;
}

/** Resolves to the number of items started (and finished). */
export async function workInLanes<T>(run: Lanes<T>): Promise<number> {
  const started = Date.now();
  const inFlight = new Set<Promise<void>>();
  let backlog: T[] = [];
  let worked = 0;
  const mayStart = () => !run.signal?.aborted && Date.now() - started < run.budgetMs;
  try {
    while (mayStart()) {
      const free = run.lanes - inFlight.size;
      if (backlog.length === 0 && free > 0) backlog = await run.claim(run.batch ?? free);
      for (const item of backlog.splice(0, Math.max(0, free))) {
        const running: Promise<void> = run
          .work(item)
          .catch(() => undefined)
          .then(() => {
            inFlight.delete(running);
          });
        inFlight.add(running);
        worked++;
      }
      if (inFlight.size === 0 && backlog.length === 0) break;
      // Every lane busy: wait for one. Otherwise also look again for newly claimable work.
      const lanesFull = inFlight.size >= run.lanes;
      await Promise.race([...inFlight, ...(lanesFull ? [] : [pause(run.pollMs, run.signal)])]);
    }
  } finally {
    await Promise.all(inFlight);
    if (backlog.length > 0) await run.release?.(backlog);
  }
  return worked;
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
