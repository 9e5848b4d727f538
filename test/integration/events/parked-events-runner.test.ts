import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Projection } from '../../../shared/projections/projection.ts';
import { rebuildProjections } from '../../../shared/projections/rebuild.ts';
import { ProjectionRunner } from '../../../shared/projections/runner.ts';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import type { Logger } from '../../../shared/logging/logger.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

/**
 * Events a projection cannot apply are parked for that projection: the runner, the other
 * projections and read-your-writes go on, nothing of the event's data reaches the parked
 * row or the logs, a retry after the fix applies it, and a rebuild finishes and reports it.
 */

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

/** Every line the runner logs, through pino's own serializers (as in production). */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: 'debug' }, stream) as unknown as Logger;
  return { logger, text: () => lines.join(''), lines };
}

/**
 * Like the clients projection: each event's name is opened (here: base64, standing for the
 * sealed value) and written in a jsonb document with one batch upsert. A NUL character in
 * a name fails it (22P05) with the JSON text, personal data included, in the error's
 * `where`, until `fixed` (the fix drops NUL characters).
 */
async function documentsProjection(suffix = randomUUID().slice(0, 8)) {
  const documents = `documents_${suffix}`;
  await database.pool.query(`create table ${documents} (event_id uuid primary key, doc jsonb not null)`);
  const state = { fixed: false };
  const projection: Projection = {
    name: `documents_${suffix}`,
    tables: [documents],
    async apply(client, events, table) {
      const mine = events.filter((event) => event.streamId.startsWith(`${suffix}-`));
      if (mine.length === 0) return;
      const rows = mine.map((event) => ({
        event_id: event.id,
        doc: { name: Buffer.from(event.data.name, 'base64').toString('utf8') },
      }));
      const json = JSON.stringify(rows);
      await client.query(
        `insert into ${table(documents)} (event_id, doc)
         select event_id, doc from jsonb_to_recordset($1::jsonb) as r(event_id uuid, doc jsonb)
         on conflict (event_id) do nothing`,
        [state.fixed ? json.replaceAll('\\u0000', '') : json],
      );
    },
  };
  const eventIds = async () =>
    (await database.pool.query<{ event_id: string }>(`select event_id from ${documents}`)).rows
      .map((row) => row.event_id)
      .sort();
  const stream = (name: string) => `${suffix}-${name}`;
  return { projection, state, eventIds, stream };
}

/** Counts every event of the whole log: it must never be held by another projection's poison. */
async function countingProjection(
  suffix = randomUUID().slice(0, 8),
): Promise<Projection & { count(): Promise<number> }> {
  const counts = `counted_${suffix}`;
  await database.pool.query(`create table ${counts} (event_id uuid primary key)`);
  return {
    name: `counted_${suffix}`,
    tables: [counts],
    async apply(client, events, table) {
      await client.query(
        `insert into ${table(counts)} (event_id) select unnest($1::uuid[]) on conflict do nothing`,
        [events.map((event) => event.id)],
      );
    },
    async count() {
      return (await database.pool.query<{ n: number }>(`select count(*)::int as n from ${counts}`)).rows[0]!
        .n;
    },
  };
}

function startRunner(projections: Projection[], logger?: Logger) {
  const runner = new ProjectionRunner(database.pool, store, projections, logger);
  runners.push(runner);
  return runner;
}

const parkedRows = async (projection: string) =>
  (
    await database.pool.query<Record<string, unknown>>(
      `select projection, event_id, position::text as position, event_type, error_code, error_message, attempts
       from parked_events where projection = $1 order by position`,
      [projection],
    )
  ).rows;

const parkedRowsAsText = async () =>
  (
    await database.pool.query<{ text: string }>(
      "select coalesce(json_agg(p)::text, '') as text from parked_events p",
    )
  ).rows[0]!.text;

const named = (name: string) => ({ type: 'named', data: { name: Buffer.from(name).toString('base64') } });

describe('parked events', () => {
  it('parks the one event a projection cannot apply, applies the rest of its batch and later events, and holds neither the other projections nor read-your-writes', async () => {
    const documents = await documentsProjection();
    const counting = await countingProjection();
    const needle = `Lovelace${randomUUID().slice(0, 6)}`;
    // One append: the runner gets all five in one batch, the poison in the middle.
    const appended = await store.append(
      documents.stream('client'),
      [
        named('Ada'),
        named('Grace'),
        named(`Ada ${needle}\u0000 Lovelace`),
        named('Edsger'),
        named('Barbara'),
      ],
      'no_stream',
    );
    const log = await store.readStream(documents.stream('client'));
    const poison = log[2]!;

    const logs = capturedLogger();
    const runner = startRunner([documents.projection, counting], logs.logger);
    await runner.start();
    const startedAt = performance.now();
    expect(await runner.waitForPosition(appended.position, 4000)).toBe(true);
    expect(performance.now() - startedAt).toBeLessThan(4000);

    expect(await documents.eventIds()).toEqual(
      log
        .filter((event) => event.id !== poison.id)
        .map((event) => event.id)
        .sort(),
    );
    expect(await counting.count()).toBeGreaterThanOrEqual(5);
    expect(await parkedRows(documents.projection.name)).toEqual([
      {
        projection: documents.projection.name,
        event_id: poison.id,
        position: String(poison.position),
        event_type: 'named',
        error_code: '22P05',
        error_message: 'unsupported Unicode escape sequence',
        attempts: 1,
      },
    ]);
    expect(await parkedRows(counting.name)).toEqual([]);

    // The same projection goes on with the next events.
    const later = await store.append(
      documents.stream('client'),
      [named('Frances')],
      appended.nextExpectedRevision,
    );
    expect(await runner.waitForPosition(later.position, 4000)).toBe(true);
    expect(await documents.eventIds()).toHaveLength(5);

    // Warned once, with the event and the error, and nothing of the data.
    const warnings = logs.lines.map((line) => JSON.parse(line)).filter((line) => line.level === 40);
    expect(warnings).toEqual([
      expect.objectContaining({
        projection: documents.projection.name,
        event_id: poison.id,
        position: String(poison.position),
        event_type: 'named',
        error_code: '22P05',
        msg: 'projection cannot apply an event: parked it and going on with the next events',
      }),
    ]);
    expect(logs.text()).not.toContain(needle);
    expect(await parkedRowsAsText()).not.toContain(needle);
    // ... although the database's error quotes it.
    const raw = await database.pool.connect().then((client) =>
      documents.projection
        .apply(client, [poison], (name) => `"${name}"`)
        .then(
          () => undefined,
          (error: unknown) => error,
        )
        .finally(() => client.release()),
    );
    expect(JSON.stringify(raw)).toContain(needle);

    // After the fix, a retry applies it and it leaves the parked list.
    const stillBroken = await runner.retryParked({ projection: documents.projection.name });
    expect(stillBroken.map((outcome) => outcome.outcome)).toEqual(['still_failing']);
    expect((await parkedRows(documents.projection.name))[0]).toMatchObject({ attempts: 2 });
    documents.state.fixed = true;
    const retried = await runner.retryParked({ eventIds: [poison.id] });
    expect(retried.map((outcome) => [outcome.outcome, outcome.parked.eventId])).toEqual([
      ['applied', poison.id],
    ]);
    expect(await parkedRows(documents.projection.name)).toEqual([]);
    expect(await documents.eventIds()).toContain(poison.id);
  });

  it('tries a batch again as a whole on a passing cause, and logs its error without the row data it quotes', async () => {
    const needle = `Hopper${randomUUID().slice(0, 6)}`;
    const suffix = randomUUID().slice(0, 8);
    let failures = 1;
    const flaky: Projection = {
      name: `flaky_${suffix}`,
      tables: [],
      async apply(_client, events) {
        if (!events.some((event) => event.streamId.startsWith(`${suffix}-`)) || failures === 0) return;
        failures -= 1;
        throw Object.assign(
          new pg.DatabaseError('could not serialize access due to concurrent update', 0, 'error'),
          {
            code: '40001',
            detail: `Key (name)=(Grace ${needle}) is being updated.`,
            where: `SQL statement with "Grace ${needle}"`,
          },
        );
      },
    };
    const appended = await store.append(`${suffix}-a`, [named(`Grace ${needle}`)], 'no_stream');
    const logs = capturedLogger();
    const runner = startRunner([flaky], logs.logger);
    await runner.start();
    expect(await runner.waitForPosition(appended.position, 10_000)).toBe(true);
    expect(failures).toBe(0);
    const errors = logs.lines.map((line) => JSON.parse(line)).filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      msg: 'projection batch failed; retrying',
      err: { code: '40001', message: 'could not serialize access due to concurrent update' },
    });
    expect(logs.text()).not.toContain(needle);
    expect(await parkedRows(flaky.name)).toEqual([]);
  });

  it('rebuild finishes past a parked event and reports it; after the fix a rebuild applies it and clears it', async () => {
    const documents = await documentsProjection();
    const appended = await store.append(
      documents.stream('rebuilt'),
      [named('Ada'), named('Grace\u0000Hopper'), named('Edsger')],
      'no_stream',
    );
    const poison = (await store.readStream(documents.stream('rebuilt')))[1]!;
    const runner = startRunner([documents.projection]);
    await runner.start();
    expect(await runner.waitForPosition(appended.position, 4000)).toBe(true);
    await runner.stop();

    const result = await rebuildProjections(database.pool, store, [documents.projection]);
    expect(result.parked.total).toBe(1);
    expect(result.parked.byProjection).toEqual({ [documents.projection.name]: 1 });
    expect(result.parked.first.map((event) => [event.projection, event.eventId, event.error.code])).toEqual([
      [documents.projection.name, poison.id, '22P05'],
    ]);
    expect(await documents.eventIds()).toHaveLength(2);
    // The rebuild's own parking replaced the live one: one row, under the live name.
    expect(await parkedRows(documents.projection.name)).toEqual([
      expect.objectContaining({ event_id: poison.id, attempts: 1 }),
    ]);
    expect(await parkedRows(`${documents.projection.name}__rebuild`)).toEqual([]);

    documents.state.fixed = true;
    const fixed = await rebuildProjections(database.pool, store, [documents.projection]);
    expect(fixed.parked).toEqual({ total: 0, byProjection: {}, first: [] });
    expect(await documents.eventIds()).toHaveLength(3);
    expect(await parkedRows(documents.projection.name)).toEqual([]);
  });
});
