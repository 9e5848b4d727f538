/**
 * Works claimed items in lanes, claiming more whenever a lane is free, so one slow item
 * holds one lane rather than a whole batch. The claim decides what is fair (round-robin by
 * team and endpoint, a cap per endpoint: ./fair-claims.ts); this loop only keeps the lanes
 * busy.
 *
 * While items are in flight and nothing more could be claimed, it looks again every
 * `pollMs`, so work that falls due meanwhile (another team's delivery) starts within that
 * time instead of after the slowest request. It stops claiming once `budgetMs` has passed
 * or `signal` is aborted (the scheduler's stop, the drain's cap), then waits for the items
 * in flight: a pass always ends with its attempts recorded, and whatever is left is still
 * due for the next pass.
 */

export interface FairDispatch<T> {
  /** Claims at most `slots` items; none when nothing can be claimed now. */
  claim(slots: number): Promise<T[]>;
  /** Works one item; records its own outcome and failures (a rejection is ignored). */
  work(item: T): Promise<void>;
  lanes: number;
  pollMs: number;
  budgetMs: number;
  signal?: AbortSignal;
}

/** Resolves to the number of items worked. */
export async function dispatchFairly<T>(dispatch: FairDispatch<T>): Promise<number> {
  const started = Date.now();
  const inFlight = new Set<Promise<void>>();
  let worked = 0;
  const mayClaim = () => !dispatch.signal?.aborted && Date.now() - started < dispatch.budgetMs;
  try {
    while (mayClaim()) {
      const free = dispatch.lanes - inFlight.size;
      const claimed = free > 0 ? await dispatch.claim(free) : [];
      for (const item of claimed) {
        const running: Promise<void> = dispatch
          .work(item)
          .catch(() => undefined)
          .then(() => {
            inFlight.delete(running);
          });
        inFlight.add(running);
      }
      worked += claimed.length;
      if (inFlight.size === 0) break;
      // Every lane busy: wait for one. Otherwise also look again for newly claimable work.
      const lanesFull = inFlight.size >= dispatch.lanes;
      await Promise.race([...inFlight, ...(lanesFull ? [] : [pause(dispatch.pollMs, dispatch.signal)])]);
    }
  } finally {
    await Promise.all(inFlight);
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
