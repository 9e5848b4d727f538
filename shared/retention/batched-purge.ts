import type { Pool } from '../db/pool.ts';

/**
 * Deleting what is past its retention period, in small batches that never hold up the
 * API: each batch is one short statement of its own (autocommit) that deletes at most
 * PURGE_BATCH rows chosen by ctid, skipping rows another transaction holds
 * (`for update skip locked`: a worker's claim, a command's update), so a purge never
 * waits on a lock and nothing waits long on it. A pass deletes at most
 * PURGE_BATCHES_PER_PASS batches per table; the next pass goes on where it stopped.
 */

export const PURGE_BATCH = 500;
export const PURGE_BATCHES_PER_PASS = 20;

export interface Purge<Settings> {
  /** Names the purge in logs and metrics. */
  readonly name: string;
  readonly table: string;
  /** How long a row is kept once its age column is set, in milliseconds. */
  keepMs(settings: Settings): number;
  /**
   * True for a row past its period: SQL on the row (columns written `$row.column`), $1 the
   * cutoff (the service clock's now minus the period).
   */
  pastPeriod(settings: Settings): string;
  /** Rows of other tables that belong to a purged row: deleted in the same statement. */
  readonly dependents?: readonly { table: string; column: string; key: string }[];
}

/** The statement of one batch; it answers the number of rows of `purge.table` deleted. */
export function batchStatement<S>(purge: Purge<S>, settings: S, batch = PURGE_BATCH): string {
  const condition = purge.pastPeriod(settings).replaceAll('$row.', 'r.');
  const keys = new Set((purge.dependents ?? []).map((dependent) => dependent.key));
  const returning = keys.size > 0 ? [...keys].join(', ') : '1';
  const dependents = (purge.dependents ?? []).map(
    (dependent, index) =>
      `, dependent_${index} as (delete from ${dependent.table} where ${dependent.column} in (select ${dependent.key} from gone))`,
  );
  return `with gone as (
      delete from ${purge.table} where ctid in (
        select r.ctid from ${purge.table} r where ${condition}
        limit ${batch} for update skip locked)
      returning ${returning})${dependents.join('')}
    select count(*)::int as deleted from gone`;
}

/** Runs batches of `purge` until none is full (or the pass's share is used); resolves to the rows deleted. */
export async function runPurge<S>(
  pool: Pool,
  purge: Purge<S>,
  settings: S,
  now: Date,
  signal?: AbortSignal,
): Promise<number> {
  const cutoff = new Date(now.getTime() - purge.keepMs(settings));
  const statement = batchStatement(purge, settings);
  let deleted = 0;
  for (let batch = 0; batch < PURGE_BATCHES_PER_PASS && !signal?.aborted; batch++) {
    const { rows } = await pool.query<{ deleted: number }>(statement, [cutoff]);
    const count = rows[0]?.deleted ?? 0;
    deleted += count;
    if (count < PURGE_BATCH) break;
  }
  return deleted;
}
