import { inTransaction, type Pool, type PoolClient } from '../shared/db/pool.ts';
import type { EventStore } from '../shared/event-store/event-store.ts';
import type { Projection } from './projection.ts';
import { applyInTransaction, applyToProjection } from './runner.ts';

const BATCH_SIZE = 2000;
const shadowName = (table: string) => `${table}__rebuild`;
const quoted = (name: string) => `"${name}"`;
const shadowTable = (table: string) => quoted(shadowName(table));
const rebuildCheckpoint = (projection: Projection) => `${projection.name}__rebuild`;

export interface RebuildProgress {
  events: number;
  position: bigint;
  head: bigint;
  eventsPerSecond: number;
}

/**
 * Replays the whole log into fresh copies of the projections' tables while the service
 * runs, then swaps them in atomically. The swap transaction locks the live checkpoints
 * (the live runner waits), applies the last events the live tables already have, and
 * renames the tables, so readers see either the old or the new tables, never a mix.
 */
export async function rebuildProjections(
  pool: Pool,
  store: EventStore,
  projections: Projection[],
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<{ events: number }> {
  await prepareShadowTables(pool, projections);
  const startedAt = performance.now();
  const head = await store.headPosition();
  let position = 0n;
  let count = 0;
  for (;;) {
    const batch = await store.readAll({ after: position, limit: BATCH_SIZE });
    if (batch.length === 0) break;
    await Promise.all(
      projections.map((projection) =>
        applyToProjection(pool, projection, batch, shadowTable, rebuildCheckpoint(projection)),
      ),
    );
    position = batch[batch.length - 1]!.position;
    count += batch.length;
    const seconds = (performance.now() - startedAt) / 1000;
    onProgress({ events: count, position, head, eventsPerSecond: seconds > 0 ? count / seconds : 0 });
  }
  await inTransaction(pool, async (client) => {
    for (const projection of projections) await swapIn(client, store, projection, position);
  });
  return { events: count };
}

async function prepareShadowTables(pool: Pool, projections: Projection[]): Promise<void> {
  await inTransaction(pool, async (client) => {
    for (const projection of projections) {
      for (const table of projection.tables) {
        await client.query(`drop table if exists ${shadowTable(table)}`);
        await client.query(`create table ${shadowTable(table)} (like ${quoted(table)} including all)`);
      }
      await client.query(
        `insert into checkpoints (name, position) values ($1, 0)
         on conflict (name) do update set position = 0`,
        [rebuildCheckpoint(projection)],
      );
    }
  });
}

async function swapIn(client: PoolClient, store: EventStore, projection: Projection, rebuilt: bigint) {
  const live = await client.query<{ position: string }>(
    'select position from checkpoints where name = $1 for update',
    [projection.name],
  );
  const livePosition = BigInt(live.rows[0]?.position ?? 0);
  // Bring the copy exactly to where the live tables are, so the live runner goes on from there.
  let position = rebuilt;
  while (position < livePosition) {
    const batch = (await store.readAll({ after: position, limit: BATCH_SIZE })).filter(
      (event) => event.position <= livePosition,
    );
    if (batch.length === 0) break;
    await applyInTransaction(client, projection, batch, shadowTable, rebuildCheckpoint(projection));
    position = batch[batch.length - 1]!.position;
  }
  for (const table of projection.tables) {
    await client.query(`lock table ${quoted(table)} in access exclusive mode`);
    await client.query(`drop table ${quoted(table)}`);
    await client.query(`alter table ${shadowTable(table)} rename to ${quoted(table)}`);
  }
  // A live runner that was behind the rebuild goes on from the rebuilt position.
  await client.query('update checkpoints set position = greatest(position, $2) where name = $1', [
    projection.name,
    String(position),
  ]);
  await client.query('delete from checkpoints where name = $1', [rebuildCheckpoint(projection)]);
}
