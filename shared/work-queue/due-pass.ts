/**
 * Work that falls due by the service clock rather than on an event: onboarding timers
 * (services/onboardings/onboarding-timers-pass.ts), hook deliveries, the automation queue,
 * mail. Each pass runs what is due now and says how much it did; the scheduler loop runs
 * every pass every few seconds and POST /admin/v1/work/drain runs them until nothing is
 * left. A pass must be safe to run twice at once (in two processes): it claims its rows
 * through the work queue (shared/work-queue/work-queue.ts: `for update skip locked`, a
 * lease or the claiming transaction holding each row).
 */
export interface DuePass<Deps = unknown> {
  readonly name: string;
  /**
   * Runs everything due by the service clock (`deps.clock`); resolves to the number of items
   * handled. `deps`: the platform parts the pass names (shared/app-deps.ts).
   * Once `signal` is aborted (the service stops, the drain's cap is reached) the pass
   * claims nothing more and returns soon: what it leased and did not finish is released or
   * left to its lease, and runs on a later pass or the next start.
   */
  runDue(deps: Deps, signal?: AbortSignal): Promise<number>;
}
