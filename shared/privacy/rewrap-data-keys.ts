import type { Pool } from '../db/pool.ts';
import { unwrapDataKey, wrapDataKey, type KeyRing } from './key-encryption-key.ts';

export interface RewrapProgress {
  /** Keys sealed with the current KEK by this run so far. */
  rewrapped: number;
}

/**
 * Seals with the current KEK every stored data key that it does not seal yet: the plain
 * keys from before KEKs (`plainOnly`, at every start) or, for a rotation, every key sealed
 * by another KEK too. One short transaction per batch walking the primary key, so it runs
 * beside the service; a key erased meanwhile stays erased (the update matches the key it
 * read). Safe to repeat and to stop at any point.
 */
export async function rewrapDataKeys(
  pool: Pick<Pool, 'query'>,
  ring: KeyRing,
  {
    plainOnly = false,
    batchSize = 500,
    onBatch,
  }: { plainOnly?: boolean; batchSize?: number; onBatch?: (progress: RewrapProgress) => void } = {},
): Promise<RewrapProgress> {
  const progress: RewrapProgress = { rewrapped: 0 };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const batch = await pool.query<{ subject_id: string; key: Buffer; kek_id: string | null }>(
      `select subject_id, key, kek_id from personal_data_keys
       where subject_id > $1 and key is not null
         and ${plainOnly ? 'kek_id is null' : 'kek_id is distinct from $3'}
       order by subject_id limit $2`,
      plainOnly ? [after, batchSize] : [after, batchSize, ring.current.id],
    );
    if (batch.rows.length === 0) return progress;
    const subjects: string[] = [];
    const oldKeys: Buffer[] = [];
    const newKeys: Buffer[] = [];
    for (const row of batch.rows) {
      const dataKey = unwrapDataKey(ring, row.subject_id, { key: row.key, kekId: row.kek_id });
      subjects.push(row.subject_id);
      oldKeys.push(row.key);
      newKeys.push(wrapDataKey(ring, row.subject_id, dataKey).key);
    }
    const updated = await pool.query(
      `update personal_data_keys k set key = v.new_key, kek_id = $4
       from unnest($1::uuid[], $2::bytea[], $3::bytea[]) as v(subject_id, old_key, new_key)
       where k.subject_id = v.subject_id and k.key = v.old_key`,
      [subjects, oldKeys, newKeys, ring.current.id],
    );
    progress.rewrapped += updated.rowCount ?? 0;
    onBatch?.(progress);
    after = subjects[subjects.length - 1]!;
  }
}
