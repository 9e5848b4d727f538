import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inTransaction } from '../../../shared/db/pool.ts';
import { WrongExpectedRevisionError, type RecordedEvent } from '../../../shared/event-store/event-store.ts';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

const WRITERS = 8;
const EVENTS_PER_WRITER = 500;
const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 3));

let database: TestDatabase;
let store: PostgresEventStore;
beforeAll(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore(database.pool, database.url);
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

it('a live subscriber gets every event exactly once, in position order, although transactions commit late and out of order', async () => {
  const received: RecordedEvent[] = [];
  const total = WRITERS * EVENTS_PER_WRITER;
  let finish!: () => void;
  const allReceived = new Promise<void>((resolve) => (finish = resolve));
  const subscription = store.subscribeToAll(0n, {
    async onEvents(events) {
      received.push(...events);
      if (received.length >= total) finish();
    },
  });

  const written: string[] = [];
  async function writer(w: number) {
    let n = 0;
    while (n < EVENTS_PER_WRITER) {
      const size = Math.min(1 + Math.floor(Math.random() * 3), EVENTS_PER_WRITER - n);
      const ids = Array.from({ length: size }, () => randomUUID());
      await inTransaction(database.pool, async (client) => {
        // Take a transaction id early, then pause: later transactions commit first.
        await client.query('select pg_current_xact_id()');
        await pause();
        await store.appendWith(
          client,
          `writer-${w}-${n % 7}`,
          ids.map((id) => ({ id, type: 'written', data: { w, n } })),
          'any',
        );
        await pause();
      });
      written.push(...ids);
      n += size;
    }
  }
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  await Promise.race([allReceived, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  await new Promise((resolve) => setTimeout(resolve, 100)); // anything extra would show up now
  await subscription.stop();

  expect(received).toHaveLength(total);
  expect(new Set(received.map((e) => e.id)).size).toBe(total);
  expect(new Set(received.map((e) => e.id))).toEqual(new Set(written));
  for (let i = 1; i < received.length; i++) {
    expect(received[i]!.position > received[i - 1]!.position).toBe(true);
  }
});

it('rolled-back appends are never seen', async () => {
  const before = await store.headPosition();
  await expect(
    inTransaction(database.pool, async (client) => {
      await store.appendWith(client, `rollback-${randomUUID()}`, [{ type: 'lost', data: {} }], 'any');
      throw new Error('abort');
    }),
  ).rejects.toThrow('abort');
  const after = await store.readAll({ after: before, limit: 10 });
  expect(after.filter((e) => e.type === 'lost')).toEqual([]);
});

it('an append that commits on its own tells other processes with a NOTIFY after its commit', async () => {
  const other = new pg.Client({ connectionString: database.url });
  await other.connect();
  try {
    await other.query('listen event_store_appended');
    const notified = new Promise<void>((resolve) => other.once('notification', () => resolve()));
    const { position } = await store.append(
      `notify-${randomUUID()}`,
      [{ type: 'told', data: {} }],
      'no_stream',
    );
    await notified;
    // The append was committed before the notification went out: a reader finds it (as
    // soon as transactions of other test files that began earlier have ended).
    let seen = await store.readAll({ after: position - 1n, limit: 1 });
    for (let attempt = 0; seen.length === 0 && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await store.readAll({ after: position - 1n, limit: 1 });
    }
    expect(seen.map((event) => event.position)).toEqual([position]);
  } finally {
    await other.end();
  }
});

it("an append whose transaction id is older than the stream's last event fails as a conflict, so a stream's events reach the log in revision order", async () => {
  const streamId = `ordered-${randomUUID()}`;
  const older = await database.pool.connect();
  try {
    await older.query('begin');
    await older.query('select pg_current_xact_id()'); // the older transaction id
    await inTransaction(database.pool, (newer) =>
      store.appendWithin(newer, streamId, [{ type: 'first', data: {} }], 'no_stream'),
    );
    // The older transaction comes next on the stream: its position would come first in the log.
    await expect(store.appendWithin(older, streamId, [{ type: 'second', data: {} }], 0n)).rejects.toThrow(
      WrongExpectedRevisionError,
    );
    await older.query('rollback');
    await expect(
      store.append(streamId, [{ type: 'second', data: {} }], 'any').then(() => 'appended'),
    ).resolves.toBe('appended');
  } finally {
    older.release();
  }
  const stream = await store.readStream(streamId);
  expect(stream.map((event) => event.type)).toEqual(['first', 'second']);
  expect(stream[0]!.position).toBeLessThan(stream[1]!.position);
  expect(stream.map((event) => event.revision)).toEqual([0n, 1n]);
});
