import { inTransaction, type Pool, type PoolClient } from '../db/pool.ts';
import type { EventStore, RecordedEvent } from '../event-store/event-store.ts';
import { applyInTransaction, wholeThenIsolating } from './apply-events.ts';
import { countParked, listParked, totalOf, type ParkedEventRow } from './parked-events.ts';
import type { Projection } from './projection.ts';
import { ReplayWindow } from './replay-window.ts';
import { buildDeferredIndexes, deferIndexes, indexShape, type DeferredIndex } from './shadow-indexes.ts';

/**
 * Events per batch of the replay: each batch costs every projection one transaction and a
 * fixed handful of statements (checkpoint, load, persist), so bigger batches spread that
 * cost; the batch and the one read ahead are what the replay holds in memory (bench part 5
 * on 1,000,000 events: 276 MB at its peak for 4,000, 296 to 307 MB for 5,000, at the same
 * rate, now that new rows travel as COPY text).
 */
const BATCH_SIZE = 4000;
const shadowName = (table: string) => `${table}__rebuild`;
const quoted = (name: string) => `"${name}"`;
const shadowTable = (table: string) => quoted(shadowName(table));
const rebuildCheckpoint = (projection: Projection) => `${projection.name}__rebuild`;
/** Session advisory lock key: one rebuild at a time per database. */
const REBUILD_LOCK = 727275;

export class RebuildInProgressError extends Error {
  constructor() {
    super('Another rebuild is running on this database');
    this.name = 'RebuildInProgressError';
  }
}

/** How many parked events (per projection) the rebuilt tables leave out; the first few named. */
export interface ParkedReport {
  total: number;
  byProjection: Record<string, number>;
  first: ParkedEventRow[];
}

export interface RebuildResult {
  events: number;
  parked: ParkedReport;
}

const PARKED_NAMED = 20;

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
 *
 * The shadow tables are filled at the price of a bulk load (docs/decisions/0102): they keep
 * only the indexes the replay reads by while it replays (./shadow-indexes.ts) and get the
 * others once at the end; projections write the rows their batch made with COPY; the
 * projections go through the batches side by side, one connection each and each at its own
 * pace (./replay-window.ts), so PostgreSQL works on as many cores as there are while this
 * process reads and folds the next batch.
 *
 * One rebuild runs at a time per database (a second one fails with RebuildInProgressError);
 * it holds one pool connection for that lock, so the pool needs at least two.
 *
 * An event a projection cannot apply is parked for the rebuild and the replay goes on
 * (apply-events.ts). The swap gives the rebuild's parked events the live name in place of
 * those the live runner had parked, so the parked list matches the new tables; the result
 * reports them.
 */
export async function rebuildProjections(
  pool: Pool,
  store: EventStore,
  projections: Projection[],
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<RebuildResult> {
  const lock = await pool.connect();
  try {
    const locked = await lock.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
      REBUILD_LOCK,
    ]);
    if (!locked.rows[0]?.locked) throw new RebuildInProgressError();
    try {
      return await replayAndSwap(pool, store, projections, onProgress);
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [REBUILD_LOCK]);
    }
  } finally {
    lock.release();
  }
}

async function replayAndSwap(
  pool: Pool,
  store: EventStore,
  projections: Projection[],
  onProgress: (progress: RebuildProgress) => void,
): Promise<RebuildResult> {
  const deferred = await prepareShadowTables(pool, projections);
  const startedAt = performance.now();
  // Replay up to the head of the log as it is now: chasing a log that the service keeps
  // writing to might never end. The swap brings the copy up to the live tables' position,
  // and the live runner goes on from there.
  const head = await store.headPosition();
  let position = 0n;
  let count = 0;
  const window = new ReplayWindow(store, head, BATCH_SIZE, projections.length, (batch) => {
    position = batch[batch.length - 1]!.position;
    count += batch.length;
    const seconds = (performance.now() - startedAt) / 1000;
    onProgress({ events: count, position, head, eventsPerSecond: seconds > 0 ? count / seconds : 0 });
  });
  // Each projection goes through the batches at its own pace (./replay-window.ts).
  await Promise.all(
    projections.map(async (projection) => {
      try {
        for (let index = 0; ; index++) {
          const batch = await window.batch(index);
          if (batch.length === 0) return;
          await applyToShadow(pool, projection, batch);
          window.appliedBatch(index, batch);
        }
      } catch (error) {
        window.fail(error);
        throw error;
      }
    }),
  );
  await buildDeferredIndexes(pool, deferred);
  await inTransaction(pool, async (client) => {
    await lockLiveCheckpoints(client, projections);
    for (const projection of projections) await swapIn(client, store, projection, position);
  });
  return { events: count, parked: await parkedReport(pool, projections) };
}

async function parkedReport(pool: Pool, projections: Projection[]): Promise<ParkedReport> {
  const names = projections.map((projection) => projection.name);
  const byProjection = await countParked(pool, names);
  const first = await listParked(pool, { projections: names, limit: PARKED_NAMED });
  return { total: totalOf(byProjection), byProjection, first };
}

/**
 * Shadow tables are invisible until the swap, and a rebuild that stops half-way starts over,
 * so their commits need not wait for the disk flush.
 */
async function applyToShadow(pool: Pool, projection: Projection, batch: RecordedEvent[]): Promise<void> {
  await wholeThenIsolating((mode) =>
    inTransaction(pool, async (client) => {
      await client.query('set local synchronous_commit = off');
      await applyInTransaction(client, projection, batch, shadowTable, rebuildCheckpoint(projection), mode);
    }),
  );
}

/** Fresh shadow tables with only the indexes the replay reads by; returns the others, built after it. */
async function prepareShadowTables(pool: Pool, projections: Projection[]): Promise<DeferredIndex[]> {
  return inTransaction(pool, async (client) => {
    const deferred: DeferredIndex[] = [];
    for (const projection of projections) {
      for (const table of projection.tables) {
        await client.query(`drop table if exists ${shadowTable(table)}`);
        await client.query(`create table ${shadowTable(table)} (like ${quoted(table)} including all)`);
        deferred.push(
          ...(await deferIndexes(client, quoted(table), shadowTable(table), projection.replayIndexes ?? [])),
        );
      }
      await client.query(
        `insert into checkpoints (name, position) values ($1, 0)
         on conflict (name) do update set position = 0`,
        [rebuildCheckpoint(projection)],
      );
      await client.query('delete from parked_events where projection = $1', [rebuildCheckpoint(projection)]);
    }
    return deferred;
  });
}

/**
 * Every live checkpoint row of the swap, created when missing (a live runner that starts
 * later must go on from the rebuilt position instead of applying the whole log a second
 * time) and locked in name order before any table: the order the live runner locks them in
 * (runner.ts), so the swap and a runner's batch wait for each other instead of deadlocking.
 */
async function lockLiveCheckpoints(client: PoolClient, projections: Projection[]): Promise<void> {
  const names = projections.map((projection) => projection.name);
  await client.query(
    `insert into checkpoints (name, position) select name, 0 from unnest($1::text[]) as name
     on conflict do nothing`,
    [names],
  );
  await client.query('select name from checkpoints where name = any($1::text[]) order by name for update', [
    names,
  ]);
}

async function swapIn(client: PoolClient, store: EventStore, projection: Projection, rebuilt: bigint) {
  // Locked already (lockLiveCheckpoints).
  const live = await client.query<{ position: string }>('select position from checkpoints where name = $1', [
    projection.name,
  ]);
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
    const names = await namesToKeep(client, table);
    await client.query(`drop table ${quoted(table)}`);
    await client.query(`alter table ${shadowTable(table)} rename to ${quoted(table)}`);
    await names.restore();
  }
  await swapParkedEvents(client, projection, position);
  // A live runner that was behind the rebuild goes on from the rebuilt position.
  await client.query('update checkpoints set position = greatest(position, $2) where name = $1', [
    projection.name,
    String(position),
  ]);
  await client.query('delete from checkpoints where name = $1', [rebuildCheckpoint(projection)]);
}

/**
 * The rebuilt tables left out exactly the events the rebuild parked up to `position`: those
 * replace what the live runner had parked up to there (an event parked live that the
 * rebuild could apply, after a fix, is in the new tables).
 */
async function swapParkedEvents(client: PoolClient, projection: Projection, position: bigint) {
  await client.query('delete from parked_events where projection = $1 and position <= $2', [
    projection.name,
    String(position),
  ]);
  await client.query('update parked_events set projection = $1 where projection = $2', [
    projection.name,
    rebuildCheckpoint(projection),
  ]);
}

interface NamedPart {
  name: string;
  /** The definition without its own or its table's name, to pair a copy's part with the original. */
  shape: string;
}

/**
 * `create table ... (like ...)` gives the copy's indexes (and so its primary key and unique
 * constraints) and, on PostgreSQL 18, its not-null constraints names of its own. After the
 * swap they get the live names back, so migrations that name them keep working after any
 * number of rebuilds.
 */
async function namesToKeep(client: PoolClient, table: string) {
  const indexes = (relation: string) =>
    client
      .query<{ name: string; definition: string }>(
        `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
         from pg_index i join pg_class c on c.oid = i.indexrelid
         where i.indrelid = $1::regclass order by c.relname`,
        [relation],
      )
      .then((result) =>
        result.rows.map((row): NamedPart => ({
          name: row.name,
          shape: indexShape(row.definition),
        })),
      );
  // Constraints without an index of their own (check, not-null); the others follow their index.
  const constraints = (relation: string) =>
    client
      .query<{ name: string; type: string; definition: string }>(
        `select conname as name, contype as type, pg_get_constraintdef(oid) as definition
         from pg_constraint where conrelid = $1::regclass and conindid = 0 order by conname`,
        [relation],
      )
      .then((result) =>
        result.rows.map((row): NamedPart => ({ name: row.name, shape: `${row.type} ${row.definition}` })),
      );
  const live = { indexes: await indexes(quoted(table)), constraints: await constraints(quoted(table)) };
  const copy = {
    indexes: await indexes(shadowTable(table)),
    constraints: await constraints(shadowTable(table)),
  };
  const pairs = (originals: NamedPart[], copies: NamedPart[]) => {
    const left = [...originals];
    const renames: { from: string; to: string }[] = [];
    for (const part of copies) {
      const match = left.findIndex((original) => original.shape === part.shape);
      if (match < 0) continue;
      const [original] = left.splice(match, 1);
      if (original!.name !== part.name) renames.push({ from: part.name, to: original!.name });
    }
    return renames;
  };
  return {
    async restore() {
      for (const { from, to } of pairs(live.indexes, copy.indexes)) {
        await client.query(`alter index ${quoted(from)} rename to ${quoted(to)}`);
      }
      for (const { from, to } of pairs(live.constraints, copy.constraints)) {
        await client.query(`alter table ${quoted(table)} rename constraint ${quoted(from)} to ${quoted(to)}`);
      }
    },
  };
}
