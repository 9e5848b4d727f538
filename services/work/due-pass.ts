import type { ServiceContext } from '../context.ts';

/**
 * Work that falls due by the service clock rather than on an event: onboarding timers
 * (services/scheduler), and later the automation queue. Each pass runs what is due now and
 * says how much it did; the scheduler loop runs every pass every few seconds and
 * POST /admin/v1/work/drain runs them until nothing is left. A pass must be safe to run
 * twice at once (in two processes): claim rows with `for update skip locked`.
 */
export interface DuePass {
  readonly name: string;
  /** Runs everything due by `context.clock.now()`; resolves to the number of items handled. */
  runDue(context: ServiceContext): Promise<number>;
}
