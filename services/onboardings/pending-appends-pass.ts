import { inCommandTransaction, type PipelineDeps } from '../../shared/commands/handle-command.ts';
import { settlePending } from '../../shared/commands/events-first.ts';
import { lockStream } from '../../shared/commands/stream-lock.ts';
import type { Logger } from '../../shared/logging/logger.ts';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';
import { undoParkedRows } from './onboarding-unit-of-work.ts';

/**
 * Settles the EventStoreDB pending appends nobody else settles (shared/commands/
 * events-first.ts): a command that crashed or failed between parking its rows and its
 * commit, on an onboarding no later command touches. Rows younger than `minAgeMs` are
 * left to their command (it still holds the stream's lock, or just let it go).
 */
export const PENDING_APPEND_MIN_AGE_MS = 10_000;

export interface PendingAppendsDeps extends PipelineDeps {
  logger: Logger;
}

export const pendingAppendsPass: DuePass<PendingAppendsDeps> = {
  name: 'eventstoredb-pending-appends',
  runDue: (deps, signal) => settleStalePendingAppends(deps, PENDING_APPEND_MIN_AGE_MS, signal),
};

/** Resolves to the number of pending rows settled. */
export async function settleStalePendingAppends(
  deps: PendingAppendsDeps,
  minAgeMs: number,
  signal?: AbortSignal,
): Promise<number> {
  const { rows } = await deps.pool.query<{ stream_id: string }>(
    `select distinct stream_id from eventstoredb_pending_appends
     where created_at <= now() - make_interval(secs => $1::double precision / 1000) limit 100`,
    [minAgeMs],
  );
  let settled = 0;
  for (const { stream_id: streamId } of rows) {
    if (signal?.aborted) break;
    const onboardingId = streamId.replace(/^onboarding-/, '');
    try {
      settled += await inCommandTransaction(deps, async (tx) => {
        await lockStream(tx, streamId);
        return settlePending(deps.eventStore, tx, streamId, (pending, own) =>
          undoParkedRows(deps.eventStore, onboardingId, pending, own),
        );
      });
    } catch (error) {
      deps.logger.error(
        { err: error, streamId },
        'a pending EventStoreDB append could not be settled; retried later',
      );
    }
  }
  return settled;
}
