import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import { inTransaction, type Pool, type PoolClient } from '../db/pool.ts';

/** An index of a shadow table that waits for the end of the replay. */
export interface DeferredIndex {
  name: string;
  /** Its CREATE INDEX statement, on the shadow table. */
  definition: string;
}

/**
 * An index definition without its own or its table's name, to pair a shadow table's index
 * with the live one it copies.
 */
export const indexShape = (definition: string) =>
  definition.replace(/^CREATE (UNIQUE )?INDEX \S+ ON (ONLY )?\S+ /, 'CREATE $1INDEX ON ');

/**
 * Drops the indexes of a fresh shadow copy of `live` that the replay does not read by and
 * returns them, to be built once at the end (buildDeferredIndexes). Kept: the unique ones
 * (a projection's upserts conflict on them, and they guard its rows while it replays),
 * those backing a constraint, and those named in `keep` (live names). Filling a table whose
 * other indexes wait costs one heap write a row, where each index kept costs a b-tree
 * insert; an index built at the end sorts its entries once.
 */
export async function deferIndexes(
  client: PoolClient,
  live: string,
  shadow: string,
  keep: readonly string[],
): Promise<DeferredIndex[]> {
  const indexes = (relation: string) =>
    client
      .query<{ name: string; definition: string; unique: boolean; constrained: boolean }>(
        `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition, i.indisunique as unique,
                exists (select 1 from pg_constraint k where k.conindid = i.indexrelid) as constrained
         from pg_index i join pg_class c on c.oid = i.indexrelid
         where i.indrelid = $1::regclass order by c.relname`,
        [relation],
      )
      .then((result) => result.rows);
  const kept = new Set(
    (await indexes(live))
      .filter((index) => keep.includes(index.name))
      .map((index) => indexShape(index.definition)),
  );
  const deferred: DeferredIndex[] = [];
  for (const index of await indexes(shadow)) {
    if (index.unique || index.constrained || kept.has(indexShape(index.definition))) continue;
    await client.query(`drop index "${index.name}"`);
    deferred.push({ name: index.name, definition: index.definition });
  }
  return deferred;
}

/**
 * Builds the deferred indexes of every shadow table, as many at a time as the machine has
 * cores, each in its own transaction and session: the shadow tables are invisible until the
 * swap, so nothing waits for them, and the live tables serve meanwhile. Each build sorts in
 * memory up to `maintenance_work_mem`, raised for it from PostgreSQL's default of 64 MB.
 */
export async function buildDeferredIndexes(pool: Pool, deferred: DeferredIndex[]): Promise<void> {
  const oneCoreEach = pLimit(availableParallelism());
  await Promise.all(
    deferred.map(({ definition }) =>
      oneCoreEach(() =>
        inTransaction(pool, async (client) => {
          await client.query(`set local maintenance_work_mem = '256MB'`);
          await client.query(definition);
        }),
      ),
    ),
  );
}
