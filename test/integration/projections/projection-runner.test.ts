import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Projection } from '../../../shared/projections/projection.ts';
import { ProjectionRunner } from '../../../shared/projections/runner.ts';
import type { RecordedEvent } from '../../../shared/event-store/event-store.ts';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import type { Logger } from '../../../shared/logging/logger.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

let database: TestDatabase;
let store: PostgresEventStore;
const runners: ProjectionRunner[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore(database.pool, database.url);
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

interface StatsOptions {
  /**
   * Throws a serialization failure (SQLSTATE 40001, a passing cause: the runner tries the
   * whole batch again) on the events it returns true for.
   */
  fault?: (event: RecordedEvent) => boolean;
  /** Recorded with every application, to see which runner applied an event. */
  tag?: string;
  /** Awaited before each batch (to hold a batch in flight). */
  beforeBatch?: () => Promise<void>;
}

/**
 * A small test projection: per stream the number of events and the last type, and one
 * row per application of an event (no unique key: applying an event twice shows). It
 * only counts the streams named `<suffix>-...` (the log is shared by the tests of this file).
 */
async function statsProjection(options: StatsOptions = {}, suffix = randomUUID().slice(0, 8)) {
  const stats = `stats_${suffix}`;
  const applied = `applied_${suffix}`;
  await database.pool.query(`
    create table if not exists ${stats} (stream_id text primary key, events integer not null, last_type text not null);
    create table if not exists ${applied} (event_id uuid not null, position bigint not null, tag text)`);
  const projection: Projection = {
    name: `stats_${suffix}`,
    tables: [stats, applied],
    async apply(client, events, table) {
      await options.beforeBatch?.();
      for (const event of events) {
        if (!event.streamId.startsWith(`${suffix}-`)) continue;
        if (options.fault?.(event)) throw serializationFailure(`projection fault at ${event.type}`);
        await client.query(
          `insert into ${table(stats)} as s (stream_id, events, last_type) values ($1, 1, $2)
           on conflict (stream_id) do update set events = s.events + 1, last_type = excluded.last_type`,
          [event.streamId, event.type],
        );
        await client.query(`insert into ${table(applied)} (event_id, position, tag) values ($1, $2, $3)`, [
          event.id,
          String(event.position),
          options.tag ?? null,
        ]);
      }
    },
  };
  const rows = async () =>
    (
      await database.pool.query<{ stream_id: string; events: number; last_type: string }>(
        `select stream_id, events, last_type from ${stats} order by stream_id`,
      )
    ).rows;
  const applications = async () =>
    (
      await database.pool.query<{ event_id: string; tag: string | null }>(
        `select event_id, tag from ${applied}`,
      )
    ).rows;
  const checkpoint = async () => {
    const result = await database.pool.query<{ position: string }>(
      'select position from checkpoints where name = $1',
      [projection.name],
    );
    return result.rows[0] ? BigInt(result.rows[0].position) : undefined;
  };
  const stream = (name: string) => `${suffix}-${name}`;
  return { projection, rows, applications, checkpoint, stream };
}

function serializationFailure(message: string): pg.DatabaseError {
  return Object.assign(new pg.DatabaseError(message, 0, 'error'), { code: '40001' });
}

function startRunner(projections: Projection[], logger?: Logger) {
  const runner = new ProjectionRunner(database.pool, store, projections, logger);
  runners.push(runner);
  return runner;
}

function errorLogger() {
  const errors: string[] = [];
  const logger = {
    error: (object: { err?: unknown }, message: string) =>
      errors.push(`${message}: ${object.err instanceof Error ? object.err.message : String(object.err)}`),
  } as unknown as Logger;
  return { logger, errors };
}

async function eventually(condition: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const events = (...types: string[]) => types.map((type, n) => ({ type, data: { n } }));

describe('projection runner', () => {
  it('applies a batch and moves its checkpoint in one transaction: an event failing for a passing cause leaves neither rows nor checkpoint, and once it passes everything is applied exactly once', async () => {
    let faulty = true;
    const stats = await statsProjection({ fault: (event) => faulty && event.type === 'poison' });
    const first = stats.stream('s1');
    const second = stats.stream('s2');
    await store.append(second, events('opened', 'named'), 'no_stream');
    // One append: the runner gets these events in the same batch, the poison in the middle.
    const appended = await store.append(first, events('a', 'b', 'poison', 'c', 'd'), 'no_stream');
    // The global log shows an append once every earlier transaction has committed: start the
    // runner when both appends are visible, so its first batch holds all seven events.
    await eventually(async () =>
      (await store.readAll({ after: 0n, limit: 100 })).some((event) => event.position === appended.position),
    );

    const { logger, errors } = errorLogger();
    const runner = startRunner([stats.projection], logger);
    await runner.start();
    await eventually(() => errors.length >= 2); // tried, rolled back, retried
    expect(errors[0]).toBe('projection batch failed; retrying: projection fault at poison');
    expect(await stats.rows()).toEqual([]); // the rows written before the poison were rolled back
    expect(await stats.applications()).toEqual([]);
    expect(await stats.checkpoint()).toBe(0n);
    expect(runner.checkpoint).toBe(0n);
    expect(await runner.waitForPosition(appended.position, 100)).toBe(false);

    faulty = false; // the bug is fixed: the next retry goes through
    expect(await runner.waitForPosition(appended.position, 10_000)).toBe(true);
    expect(await stats.rows()).toEqual(
      [
        { stream_id: first, events: 5, last_type: 'd' },
        { stream_id: second, events: 2, last_type: 'named' },
      ].sort((x, y) => x.stream_id.localeCompare(y.stream_id)),
    );
    const applications = await stats.applications();
    expect(applications).toHaveLength(7);
    expect(new Set(applications.map((row) => row.event_id)).size).toBe(7);
    expect(await stats.checkpoint()).toBe(appended.position);
  });

  it('goes on from its stored checkpoint after a restart, without applying anything twice', async () => {
    const stats = await statsProjection();
    const stream = stats.stream('restart');
    const before = await store.append(stream, events('a', 'b', 'c'), 'no_stream');
    const runner = startRunner([stats.projection]);
    await runner.start();
    expect(await runner.waitForPosition(before.position)).toBe(true);
    await runner.stop();

    const after = await store.append(stream, events('d', 'e'), before.nextExpectedRevision);
    const restarted = startRunner([stats.projection]);
    await restarted.start();
    expect(restarted.checkpoint).toBe(before.position);
    expect(await restarted.waitForPosition(after.position)).toBe(true);
    expect(await stats.rows()).toEqual([{ stream_id: stream, events: 5, last_type: 'e' }]);
    expect(await stats.applications()).toHaveLength(5);
  });

  it('waitForPosition resolves once the checkpoint passes an appended position (read your writes)', async () => {
    const stats = await statsProjection();
    const runner = startRunner([stats.projection]);
    await runner.start();
    const stream = stats.stream('ryw');
    for (let n = 0; n < 5; n++) {
      const appended = await store.append(stream, events(`step-${n}`), n === 0 ? 'no_stream' : BigInt(n - 1));
      expect(await runner.waitForPosition(appended.position)).toBe(true);
      expect(runner.checkpoint >= appended.position).toBe(true);
      // The read model already shows the write.
      expect(await stats.rows()).toEqual([{ stream_id: stream, events: n + 1, last_type: `step-${n}` }]);
    }
    // A position already passed answers at once.
    expect(await runner.waitForPosition(1n, 0)).toBe(true);
  });

  it('waitForPosition returns false on timeout', async () => {
    const stats = await statsProjection();
    const runner = startRunner([stats.projection]);
    await runner.start();
    const head = await store.headPosition();
    const startedAt = performance.now();
    expect(await runner.waitForPosition(head + 1_000_000_000n, 200)).toBe(false);
    const waited = performance.now() - startedAt;
    expect(waited).toBeGreaterThanOrEqual(190);
    expect(waited).toBeLessThan(2000);

    // A stopped runner never catches up with a new append.
    await runner.stop();
    const appended = await store.append(`timeout-${randomUUID()}`, events('late'), 'no_stream');
    expect(await runner.waitForPosition(appended.position, 300)).toBe(false);
  });

  it('two runners on the same database never apply an event twice', async () => {
    const suffix = randomUUID().slice(0, 8);
    const one = await statsProjection({ tag: 'one' }, suffix);
    const two = await statsProjection({ tag: 'two' }, suffix);
    expect(two.projection.name).toBe(one.projection.name);
    const runnerOne = startRunner([one.projection]);
    const runnerTwo = startRunner([two.projection]);
    await Promise.all([runnerOne.start(), runnerTwo.start()]);

    const writers = 4;
    const perWriter = 100;
    const streams = new Map<string, number>();
    let last = 0n;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let n = 0; n < perWriter; n++) {
          const stream = one.stream(`${(w * 7 + n) % 10}`);
          const { position } = await store.append(stream, events(`t${n % 3}`), 'any');
          if (position > last) last = position;
          streams.set(stream, (streams.get(stream) ?? 0) + 1);
          if (n % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
        }
      }),
    );
    expect(await runnerOne.waitForPosition(last, 15_000)).toBe(true);
    expect(await runnerTwo.waitForPosition(last, 15_000)).toBe(true);

    const applications = await one.applications();
    expect(applications).toHaveLength(writers * perWriter);
    expect(new Set(applications.map((row) => row.event_id)).size).toBe(writers * perWriter);
    const rows = await one.rows();
    expect(Object.fromEntries(rows.map((row) => [row.stream_id, row.events]))).toEqual(
      Object.fromEntries(streams),
    );
    expect(await one.checkpoint()).toBeGreaterThanOrEqual(last);
  });

  it('stop() lets the batch in flight finish and leaves its checkpoint stored', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const stats = await statsProjection({
      beforeBatch: async () => {
        entered();
        await gate;
      },
    });
    const appended = await store.append(stats.stream('stop'), events('a', 'b'), 'no_stream');
    const runner = startRunner([stats.projection]);
    await runner.start();
    await inFlight;
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false); // waits for the batch
    release();
    await stopping;
    expect(await stats.checkpoint()).toBe(appended.position);
    expect(runner.checkpoint).toBe(appended.position);
    expect(await stats.applications()).toHaveLength(2);
  });
});
