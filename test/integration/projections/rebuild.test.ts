import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjections } from '../../../services/app/projections.ts';
import type { Projection } from '../../../shared/projections/projection.ts';
import {
  rebuildProjections,
  RebuildInProgressError,
  type RebuildProgress,
} from '../../../shared/projections/rebuild.ts';
import { ProjectionRunner } from '../../../shared/projections/runner.ts';
import type { RecordedEvent } from '../../../shared/event-store/event-store.ts';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

/**
 * The rebuild invariant: replaying the whole log into fresh tables gives the live tables
 * row for row. It holds for every projection the service has (allProjections) and for a
 * test projection with two tables (per stream and per event type) defined here. The
 * random series is seeded; a failure names its seed (REBUILD_SEED=... reruns it).
 */
const SEED = Number(process.env.REBUILD_SEED ?? Math.floor(Math.random() * 2 ** 31));
const STREAMS = 24;
const TYPES = ['opened', 'renamed', 'tagged', 'noted', 'closed', 'reopened'];

function mulberry32(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(SEED);
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;

/** Per stream: events, last type, sum of `data.n`, tags seen; per type: events and streams. */
function testProjection(name = 'rebuild_test', prefix = 'rt'): Projection {
  const streams = `${prefix}_streams`;
  const types = `${prefix}_types`;
  return {
    name,
    tables: [streams, types],
    async apply(client, events, table) {
      for (const event of events) {
        if (!event.streamId.startsWith('rebuild-')) continue;
        await client.query(
          `insert into ${table(streams)} as s (stream_id, events, last_type, total, tags, last_position, first_recorded_at)
           values ($1, 1, $2, $3, case when $4::text is null then '[]'::jsonb else jsonb_build_array($4::text) end, $5, $6)
           on conflict (stream_id) do update set
             events = s.events + 1,
             last_type = excluded.last_type,
             total = s.total + excluded.total,
             tags = case when $4::text is null then s.tags else s.tags || jsonb_build_array($4::text) end,
             last_position = excluded.last_position`,
          [
            event.streamId,
            event.type,
            event.data.n,
            event.data.tag ?? null,
            String(event.position),
            event.recordedAt,
          ],
        );
        await client.query(
          `insert into ${table(types)} as t (type, events, streams) values ($1, 1, array[$2])
           on conflict (type) do update set
             events = t.events + 1,
             streams = case when $2 = any(t.streams) then t.streams else array_append(t.streams, $2) end`,
          [event.type, event.streamId],
        );
      }
    },
  };
}

async function createTestTables(prefix = 'rt') {
  await database.pool.query(`
    create table ${prefix}_streams (
      stream_id text primary key,
      events integer not null,
      last_type text not null,
      total bigint not null,
      tags jsonb not null,
      last_position bigint not null,
      first_recorded_at timestamptz not null,
      constraint ${prefix}_streams_events_positive check (events > 0)
    );
    create index ${prefix}_streams_last_type_idx on ${prefix}_streams (last_type);
    create table ${prefix}_types (type text primary key, events integer not null, streams text[] not null);`);
}

/** What the test projection must hold after the whole log, computed without a database. */
function expectedTestRows(log: RecordedEvent[]) {
  const streams = new Map<string, { events: number; last_type: string; total: number; tags: string[] }>();
  const types = new Map<string, { events: number; streams: string[] }>();
  for (const event of log.filter((e) => e.streamId.startsWith('rebuild-'))) {
    const stream = streams.get(event.streamId) ?? { events: 0, last_type: '', total: 0, tags: [] };
    stream.events += 1;
    stream.last_type = event.type;
    stream.total += event.data.n as number;
    if (event.data.tag) stream.tags.push(event.data.tag as string);
    streams.set(event.streamId, stream);
    const type = types.get(event.type) ?? { events: 0, streams: [] };
    type.events += 1;
    if (!type.streams.includes(event.streamId)) type.streams.push(event.streamId);
    types.set(event.type, type);
  }
  return {
    streams: [...streams].map(([stream_id, row]) => ({ stream_id, ...row })).sort(byKey('stream_id')),
    types: [...types].map(([type, row]) => ({ type, ...row })).sort(byKey('type')),
  };
}
const byKey =
  <K extends string>(key: K) =>
  (a: Record<K, string>, b: Record<K, string>) =>
    a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0;

let database: TestDatabase;
let store: PostgresEventStore;
let runner: ProjectionRunner;
let projections: Projection[];

beforeAll(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore(database.pool, database.url);
  await createTestTables();
  projections = [...allProjections, testProjection()];
  runner = new ProjectionRunner(database.pool, store, projections);
  await runner.start();
});
afterAll(async () => {
  await runner?.stop();
  await store?.close();
  await database?.drop();
});

/**
 * The position of the newest append. "Caught up" means up to it: the head a reader sees may
 * lag behind while an unrelated transaction (another test file on the same server) is open.
 */
let lastAppended = 0n;

/** Appends `count` random events: random streams, random types, 1 to 3 events per append. */
async function appendRandom(count: number, writers = 4, pauseMs = 0) {
  let left = count;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (left > 0) {
        const size = Math.min(left, 1 + Math.floor(random() * 3));
        left -= size;
        const stream = `rebuild-${Math.floor(random() * STREAMS)}`;
        const batch = Array.from({ length: size }, () => ({
          type: pick(TYPES),
          data: {
            n: Math.floor(random() * 1000) - 500,
            ...(random() < 0.3 ? { tag: pick(['a', 'b', 'c']) } : {}),
          },
        }));
        const { position } = await store.append(stream, batch, 'any');
        if (position > lastAppended) lastAppended = position;
        if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, random() * pauseMs));
      }
    }),
  );
}

/** Appends until stopped (the service keeps writing during a rebuild). */
function keepAppending() {
  let running = true;
  let appended = 0;
  const done = (async () => {
    while (running) {
      await appendRandom(1 + Math.floor(random() * 4), 2);
      appended++;
      await new Promise((resolve) => setTimeout(resolve, 5 + random() * 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return appended;
    },
  };
}

async function liveCatchesUp(live = runner) {
  expect(await live.waitForPosition(lastAppended, 20_000), `seed ${SEED}`).toBe(true);
}

const tablesOf = (list: Projection[]) => list.flatMap((projection) => projection.tables);

/** Every row of every table, as sorted JSON: a full row-for-row picture. */
async function rowsOf(tables: string[]): Promise<Record<string, string[]>> {
  const picture: Record<string, string[]> = {};
  for (const table of tables) {
    const result = await database.pool.query<{ row: string }>(
      `select to_jsonb(t)::text as row from "${table}" t`,
    );
    picture[table] = result.rows.map((r) => r.row).sort();
  }
  return picture;
}

/** Columns, indexes and constraints with their names: a rebuild must not change the schema. */
async function schemaOf(tables: string[]): Promise<Record<string, unknown>> {
  const picture: Record<string, unknown> = {};
  for (const table of tables) {
    const columns = await database.pool.query(
      `select column_name, data_type, is_nullable, column_default from information_schema.columns
       where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
      [table],
    );
    const indexes = await database.pool.query(
      `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = $1 order by 1`,
      [table],
    );
    const constraints = await database.pool.query(
      `select conname, contype, pg_get_constraintdef(oid) as definition from pg_constraint
       where conrelid = $1::regclass order by 1`,
      [`"${table}"`],
    );
    picture[table] = { columns: columns.rows, indexes: indexes.rows, constraints: constraints.rows };
  }
  return picture;
}

async function testRows() {
  const streams = await database.pool.query(
    'select stream_id, events, last_type, total::int as total, tags from rt_streams order by stream_id collate "C"',
  );
  const types = await database.pool.query(
    'select type, events, streams from rt_types order by type collate "C"',
  );
  return { streams: streams.rows, types: types.rows };
}

/** The log up to the newest append. */
async function wholeLog(): Promise<RecordedEvent[]> {
  const log: RecordedEvent[] = [];
  while ((log.at(-1)?.position ?? 0n) < lastAppended) {
    const batch = await store.readAll({ after: log.at(-1)?.position ?? 0n, limit: 1000 });
    if (batch.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    log.push(...batch.filter((event) => event.position <= lastAppended));
  }
  return log;
}

describe(`rebuild (seed ${SEED})`, () => {
  it('after a random series of appends, the rebuilt tables equal the live tables row for row', async () => {
    await appendRandom(400);
    await liveCatchesUp();
    const tables = tablesOf(projections);
    const live = await rowsOf(tables);
    const schema = await schemaOf(tables);
    expect(live.rt_streams!.length, 'the live tables are not empty').toBeGreaterThan(10);
    // The live run itself is right: it matches the log, folded without a database.
    const expected = expectedTestRows(await wholeLog());
    expect(await testRows(), `seed ${SEED}`).toEqual(expected);

    const progress: RebuildProgress[] = [];
    const result = await rebuildProjections(database.pool, store, projections, (p) => progress.push(p));
    expect(result.events).toBeGreaterThanOrEqual(400);
    expect(progress.at(-1)?.events).toBe(result.events);
    expect(progress.at(-1)!.position).toBeLessThanOrEqual(progress.at(-1)!.head);

    expect(await rowsOf(tables), `seed ${SEED}`).toEqual(live);
    expect(await schemaOf(tables), 'same columns, indexes and constraint names').toEqual(schema);
    const leftovers = await database.pool.query(
      "select tablename from pg_tables where tablename like '%\\_\\_rebuild' or tablename like '%\\_\\_rebuild\\_%'",
    );
    expect(leftovers.rows).toEqual([]);
  });

  it('a rebuild while appends continue ends equal to the log once the live runner catches up', async () => {
    const tables = tablesOf(projections);
    const schema = await schemaOf(tables);
    const writer = keepAppending();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Several rebuilds in a row, each swapping in while the live runner applies new events.
    for (let n = 0; n < 3; n++) {
      await rebuildProjections(database.pool, store, projections);
      await new Promise((resolve) => setTimeout(resolve, random() * 50));
    }
    // And one while a writer's transaction takes its position early and commits late: the
    // rebuild sees the log only up to that transaction, the live runner applies the rest.
    const straggler = await database.pool.connect();
    try {
      await straggler.query('begin');
      await straggler.query('select pg_current_xact_id()');
      const rebuilding = rebuildProjections(database.pool, store, projections);
      await new Promise((resolve) => setTimeout(resolve, 30));
      const late = await store.appendWith(
        straggler,
        'rebuild-straggler',
        [{ type: 'late', data: { n: 1 } }],
        'any',
      );
      await straggler.query('commit');
      if (late.position > lastAppended) lastAppended = late.position;
      await rebuilding;
    } finally {
      straggler.release();
    }
    const appendsDuring = await writer.stop();
    expect(appendsDuring, 'appends ran during the rebuilds').toBeGreaterThan(3);
    await liveCatchesUp();

    // Nothing lost or applied twice around the swaps: the test projection matches the log.
    expect(await testRows(), `seed ${SEED}`).toEqual(expectedTestRows(await wholeLog()));
    // And every projection equals a fresh replay of the whole log.
    const live = await rowsOf(tables);
    await rebuildProjections(database.pool, store, projections);
    expect(await rowsOf(tables), `seed ${SEED}`).toEqual(live);
    expect(await schemaOf(tables)).toEqual(schema);
  });

  it('a rebuild before the live runner ever ran: the runner goes on from the rebuilt position', async () => {
    await createTestTables('late');
    const late = testProjection('rebuild_late', 'late');
    await appendRandom(50);
    // The rebuild replays up to the head it sees when it starts; transactions of other test
    // files (same cluster) can hide the newest events for a moment, so wait until they show.
    while ((await store.headPosition()) < lastAppended)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await rebuildProjections(database.pool, store, [late]);
    const rebuilt = await rowsOf(late.tables);

    const lateRunner = new ProjectionRunner(database.pool, store, [late]);
    await lateRunner.start();
    try {
      await liveCatchesUp(lateRunner);
      expect(await rowsOf(late.tables)).toEqual(rebuilt); // not the whole log a second time
      await appendRandom(20);
      await liveCatchesUp(lateRunner);
    } finally {
      await lateRunner.stop();
    }
    const log = await wholeLog();
    const streams = await database.pool.query<{ events: number }>('select events from late_streams');
    expect(streams.rows.reduce((sum, row) => sum + row.events, 0)).toBe(
      log.filter((event) => event.streamId.startsWith('rebuild-')).length,
    );
  });

  it('one rebuild at a time: a second one fails and leaves the first to finish', async () => {
    await createTestTables('slow');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const base = testProjection('rebuild_slow', 'slow');
    const slow: Projection = {
      ...base,
      async apply(client, events, table) {
        entered();
        await gate;
        await base.apply(client, events, table);
      },
    };
    const first = rebuildProjections(database.pool, store, [slow]);
    await inFlight;
    await expect(rebuildProjections(database.pool, store, [slow])).rejects.toBeInstanceOf(
      RebuildInProgressError,
    );
    release();
    const result = await first;
    expect(result.events).toBeGreaterThan(0);
  });
});
