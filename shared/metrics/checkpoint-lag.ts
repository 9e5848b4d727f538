import type { Pool } from '../db/pool.ts';
import { queryWithTimeout } from '../db/query-with-timeout.ts';

export type CheckpointKind = 'projection' | 'consumer' | 'relay';

export interface CheckpointLag {
  checkpoint: string;
  kind: CheckpointKind;
  /** Events of the log after the checkpoint, counted up to LAG_COUNT_CAP. */
  behindEvents: number;
  /** Age of the oldest event after the checkpoint (0 when there is none). */
  lagSeconds: number;
}

/** Counting stops here: a checkpoint that far behind is stuck whatever the exact number. */
export const LAG_COUNT_CAP = 100_000;

/**
 * Pure: what a checkpoint row follows. Projections are named by the runner; log consumers
 * are `consumer:<name>`, the Kafka relay `relay:<name>`; anything else (a rebuild's
 * temporary checkpoint) is not reported.
 */
export function checkpointKind(name: string, projectionNames: readonly string[]): CheckpointKind | null {
  if (projectionNames.includes(name)) return 'projection';
  if (name.startsWith('consumer:')) return 'consumer';
  if (name.startsWith('relay:')) return 'relay';
  return null;
}

/**
 * How far every checkpoint is behind the PostgreSQL event log, in one read: per
 * checkpoint an index range on events (capped), and the recorded_at of the first event
 * after it. Seconds are measured on the database's clock, which stamped recorded_at.
 */
export async function readCheckpointLags(
  pool: Pool,
  projectionNames: readonly string[],
  timeoutMs: number,
): Promise<CheckpointLag[]> {
  const rows = await queryWithTimeout<{ name: string; behind: string; lag_seconds: number }>(
    pool,
    `select c.name,
            (select count(*) from (select 1 from events e where e.position > c.position limit ${LAG_COUNT_CAP}) behind) as behind,
            coalesce(extract(epoch from now() - (
              select e.recorded_at from events e where e.position > c.position order by e.position limit 1
            )), 0)::float8 as lag_seconds
       from checkpoints c`,
    [],
    timeoutMs,
  );
  const lags: CheckpointLag[] = [];
  for (const row of rows) {
    const kind = checkpointKind(row.name, projectionNames);
    if (!kind) continue;
    lags.push({
      checkpoint: row.name,
      kind,
      behindEvents: Number(row.behind),
      lagSeconds: Math.max(0, row.lag_seconds),
    });
  }
  return lags;
}

/** Pure: the checkpoints past `maxLagSeconds` behind, with a sentence for each. */
export function stuckCheckpoints(
  lags: CheckpointLag[],
  maxLagSeconds: number,
  watched: (lag: CheckpointLag) => boolean,
): { lag: CheckpointLag; reason: string }[] {
  return lags
    .filter((lag) => watched(lag) && lag.lagSeconds > maxLagSeconds)
    .map((lag) => ({
      lag,
      reason: `${lag.kind} ${lag.checkpoint} is ${Math.floor(lag.lagSeconds)} s behind the event log (${lag.behindEvents} events; limit ${maxLagSeconds} s)`,
    }));
}
