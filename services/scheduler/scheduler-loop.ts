import type { ServiceContext } from '../context.ts';

/** How often the loop looks for due work (wall-clock interval; what is due is decided by the service clock). */
export const SCHEDULER_INTERVAL_MS = 5000;

export interface RunningScheduler {
  /** Runs a pass now (after the one in progress, if any). */
  poke(): void;
  /** Stops the loop and waits for the pass in progress. */
  stop(): Promise<void>;
}

/**
 * The scheduler: every few seconds, runs every due pass of the service (context.duePasses:
 * the onboarding timers, later the automation queue). One pass at a time per process;
 * passes of several processes are safe together (each pass claims its rows with
 * `for update skip locked`). Started by services/runtime.ts; tests call
 * POST /admin/v1/work/drain instead.
 */
export function startScheduler(
  context: ServiceContext,
  intervalMs = SCHEDULER_INTERVAL_MS,
): RunningScheduler {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const tick = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      for (const pass of context.duePasses) {
        if (stopped) return;
        try {
          await pass.runDue(context);
        } catch (error) {
          context.logger.error({ err: error, pass: pass.name }, 'scheduled pass failed; it runs again later');
        }
      }
    })().finally(() => {
      running = undefined;
      if (again && !stopped) {
        again = false;
        tick();
      }
    });
  };

  const interval = setInterval(tick, intervalMs);
  interval.unref();
  tick();

  return {
    poke: tick,
    async stop() {
      stopped = true;
      clearInterval(interval);
      await running;
    },
  };
}
