import type { Platform } from '../../shared/app-deps.ts';
import { runPurge } from '../../shared/retention/batched-purge.ts';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';
import { retentionPurges } from './retention-purges.ts';

export type RetentionDeps = Pick<Platform, 'clock' | 'settings' | 'pool' | 'logger'>;

/**
 * Deletes what is past its retention period (./retention-purges.ts), by the service clock,
 * on every scheduler tick and work drain; resolves to the rows deleted.
 */
export async function purgeExpired(context: RetentionDeps, signal?: AbortSignal): Promise<number> {
  const now = context.clock.now();
  let total = 0;
  for (const purge of retentionPurges) {
    if (signal?.aborted) break;
    const deleted = await runPurge(context.pool, purge, context.settings, now, signal);
    if (deleted > 0) context.logger.info({ purge: purge.name, deleted }, 'purged rows past their retention');
    total += deleted;
  }
  return total;
}

/**
 * Purging is housekeeping, not the product's work: the pass counts nothing as handled, so a
 * drain's answer and its rounds are about timers, deliveries and mail. What a pass leaves
 * (more than PURGE_BATCHES_PER_PASS full batches of a table) goes on the next tick.
 */
export const retentionPass: DuePass<RetentionDeps> = {
  name: 'retention',
  runDue: async (context: RetentionDeps, signal?: AbortSignal) => {
    await purgeExpired(context, signal);
    return 0;
  },
};
