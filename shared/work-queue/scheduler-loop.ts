import { isConnectionError } from '../db/connection-errors.ts';
import type { Logger } from '../logging/logger.ts';
import type { DuePass } from './due-pass.ts';
import { settleWithin } from './settle-within.ts';

/** How often the loop looks for due work (wall-clock interval; what is due is decided by the service clock). */
export const SCHEDULER_INTERVAL_MS = 5000;
/**
 * How long `stop` waits for the pass in progress after telling it to stop. A pass stops
 * claiming at once, but requests already sent (a hook target that never answers) may run
 * to their own 10-second timeout: those are not waited for, their leases run out and the
 * next start takes them again.
 */
export const SCHEDULER_STOP_GRACE_MS = 2000;

export interface RunningScheduler {
  /** Runs a pass now (after the one in progress, if any). */
  poke(): void;
  /** Stops the loop: the pass in progress is told to stop and waited for at most `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** What the loop needs: the passes, a logger, and what the passes need (handed to each pass). */
export interface SchedulerDeps<Deps> {
  logger: Logger;
  duePasses: readonly DuePass<Deps>[];
}

/**
 * The scheduler: every few seconds, runs every due pass of the service (context.duePasses:
 * the onboarding timers, hook deliveries, the automation queue, mail). One pass at a time
 * per process; passes of several processes are safe together (each pass claims its rows
 * with `for update skip locked`). A failing pass (the database out of reach) is logged
 * and runs again on the next tick. Started by services/app/runtime.ts; tests call
 * POST /admin/v1/work/drain instead.
 */
export function startScheduler<Deps>(
  context: Deps & SchedulerDeps<Deps>,
  intervalMs = SCHEDULER_INTERVAL_MS,
): RunningScheduler {
  let running: Promise<void> | undefined;
  let again = false;
  const stopping = new AbortController();

  const tick = (): void => {
    if (stopping.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      for (const pass of context.duePasses) {
        if (stopping.signal.aborted) return;
        try {
          await pass.runDue(context, stopping.signal);
        } catch (error) {
          if (isConnectionError(error)) {
            context.logger.warn(
              { pass: pass.name },
              'scheduled pass cannot reach the database; it runs again later',
            );
          } else {
            context.logger.error(
              { err: error, pass: pass.name },
              'scheduled pass failed; it runs again later',
            );
          }
        }
      }
    })().finally(() => {
      running = undefined;
      if (again && !stopping.signal.aborted) {
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
    async stop(graceMs = SCHEDULER_STOP_GRACE_MS) {
      stopping.abort();
      clearInterval(interval);
      if (!(await settleWithin(running, graceMs))) {
        context.logger.warn('a scheduled pass is still finishing its requests; its leases run out');
      }
    },
  };
}
