import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { PoolClient } from '../../../shared/db/pool.ts';
import type { RecordedEvent } from '../../../shared/event-store/event-store.ts';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import { EventConsumers } from '../../../shared/subscriptions/consumers.ts';
import type { EventConsumer } from '../../../shared/subscriptions/event-consumer.ts';
import { startLogConsumer } from '../../../shared/subscriptions/log-consumer.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

let database: TestDatabase;
let store: PostgresEventStore;

// A fresh database per test: every consumer here reads the whole log from the start.
beforeEach(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore(database.pool, database.url);
  await database.pool.query(
    `create table consumer_effects (
       seq bigserial primary key, consumer text not null, event_id uuid not null, type text not null
     )`,
  );
});

afterEach(async () => {
  await store?.close();
  await database?.drop();
});

/** A consumer whose effect is one row per handled event, written through its transaction. */
function recordingConsumer(name: string, options: Partial<EventConsumer> = {}) {
  const calls: RecordedEvent[] = [];
  const consumer: EventConsumer = {
    name,
    ...options,
    async handle(event: RecordedEvent, tx: PoolClient) {
      calls.push(event);
      await tx.query('insert into consumer_effects (consumer, event_id, type) values ($1, $2, $3)', [
        name,
        event.id,
        event.type,
      ]);
    },
  };
  return { consumer, calls };
}

async function appendEvents(count: number, streams: string[], type = 'test.happened') {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const id = randomUUID();
    ids.push(id);
    await store.append(streams[index % streams.length]!, [{ id, type, data: { index } }], 'any');
  }
  return ids;
}

const effects = async (consumer: string) =>
  (
    await database.pool.query<{ event_id: string; type: string }>(
      'select event_id, type from consumer_effects where consumer = $1 order by seq',
      [consumer],
    )
  ).rows;

const logOrder = async (ids: string[]) =>
  (
    await database.pool.query<{ event_id: string }>(
      'select event_id from events where event_id = any($1::uuid[]) order by position',
      [ids],
    )
  ).rows.map((row) => row.event_id);

const deps = () => ({ pool: database.pool, eventStore: store });

describe('log consumer adapter', () => {
  test('handles every event once, in log order, across a restart', async () => {
    const name = `restart-${randomUUID().slice(0, 8)}`;
    const first = await appendEvents(30, ['s-a', 's-b', 's-c']);
    const { consumer, calls } = recordingConsumer(name);

    let running = await startLogConsumer(consumer, deps());
    expect(await running.caughtUp(await store.headPosition(), 10_000)).toBe(true);
    await running.stop();

    const second = await appendEvents(20, ['s-a', 's-d']);
    running = await startLogConsumer(consumer, deps());
    const head = await store.headPosition();
    expect(await running.caughtUp(head, 10_000)).toBe(true);
    await running.stop();

    const handled = await effects(name);
    expect(handled.map((row) => row.event_id)).toEqual(await logOrder([...first, ...second]));
    expect(calls).toHaveLength(50);
    const checkpoint = await database.pool.query<{ position: string }>(
      'select position from checkpoints where name = $1',
      [`consumer:${name}`],
    );
    expect(checkpoint.rows[0]?.position).toBe(String(head));
  });

  test('skips a duplicate delivery: a replay from an older checkpoint changes nothing', async () => {
    const name = `replay-${randomUUID().slice(0, 8)}`;
    await appendEvents(10, ['r-a', 'r-b']);
    const { consumer, calls } = recordingConsumer(name);
    let running = await startLogConsumer(consumer, deps());
    expect(await running.caughtUp(await store.headPosition(), 10_000)).toBe(true);
    await running.stop();
    expect(calls).toHaveLength(10);

    // Replay: the checkpoint goes back to the start (as after restoring a backup).
    await database.pool.query('update checkpoints set position = 0 where name = $1', [`consumer:${name}`]);
    const more = await appendEvents(2, ['r-c']);
    running = await startLogConsumer(consumer, deps());
    expect(await running.caughtUp(await store.headPosition(), 10_000)).toBe(true);
    await running.stop();

    expect(calls.slice(10).map((event) => event.id)).toEqual(more);
    expect(await effects(name)).toHaveLength(12);
    const dedupe = await database.pool.query<{ count: string }>(
      'select count(*) as count from processed_events where consumer = $1',
      [name],
    );
    expect(dedupe.rows[0]?.count).toBe('12');
  });

  test('a failing handler rolls back its writes and gets the same event again', async () => {
    const name = `retry-${randomUUID().slice(0, 8)}`;
    const [poison, after] = await appendEvents(2, ['f-a']);
    let attempts = 0;
    const consumer: EventConsumer = {
      name,
      async handle(event, tx) {
        await tx.query('insert into consumer_effects (consumer, event_id, type) values ($1, $2, $3)', [
          name,
          event.id,
          event.type,
        ]);
        if (event.id === poison && ++attempts < 3) throw new Error('receiver unavailable');
      },
    };
    const running = await startLogConsumer(consumer, deps());
    expect(await running.caughtUp(await store.headPosition(), 10_000)).toBe(true);
    await running.stop();

    expect(attempts).toBe(3);
    expect((await effects(name)).map((row) => row.event_id)).toEqual([poison, after]);
  });

  test('passes over unwanted types and still catches up', async () => {
    const name = `filter-${randomUUID().slice(0, 8)}`;
    const wanted = await appendEvents(3, ['t-a'], 'test.wanted');
    await appendEvents(4, ['t-b'], 'test.other');
    const { consumer, calls } = recordingConsumer(name, { eventTypes: ['test.wanted'] });
    const running = await startLogConsumer(consumer, deps());
    const head = await store.headPosition();
    expect(await running.caughtUp(head, 10_000)).toBe(true);
    await running.stop();

    expect(calls.map((event) => event.id)).toEqual(wanted);
    const checkpoint = await database.pool.query<{ position: string }>(
      'select position from checkpoints where name = $1',
      [`consumer:${name}`],
    );
    expect(checkpoint.rows[0]?.position).toBe(String(head));
  });

  test('two instances of one consumer still handle each event once', async () => {
    const name = `twice-${randomUUID().slice(0, 8)}`;
    const ids = await appendEvents(40, ['m-a', 'm-b', 'm-c', 'm-d']);
    const one = recordingConsumer(name);
    const two = recordingConsumer(name);
    const [first, second] = await Promise.all([
      startLogConsumer(one.consumer, deps()),
      startLogConsumer(two.consumer, deps()),
    ]);
    const head = await store.headPosition();
    expect(await first.caughtUp(head, 10_000)).toBe(true);
    expect(await second.caughtUp(head, 10_000)).toBe(true);
    await Promise.all([first.stop(), second.stop()]);

    expect(one.calls.length + two.calls.length).toBe(40);
    expect((await effects(name)).map((row) => row.event_id)).toEqual(await logOrder(ids));
  });

  test('drain waits until every consumer has handled the log head', async () => {
    const consumers = new EventConsumers({
      settings: { KAFKA_BROKERS: [] },
      pool: database.pool,
      eventStore: store,
    });
    const a = recordingConsumer(`drain-a-${randomUUID().slice(0, 8)}`);
    const b = recordingConsumer(`drain-b-${randomUUID().slice(0, 8)}`, { eventTypes: ['test.none'] });
    const started = await Promise.all([consumers.start(a.consumer), consumers.start(b.consumer)]);
    expect(started.map((consumer) => consumer.adapter)).toEqual(['log', 'log']);
    const ids = await appendEvents(25, ['d-a', 'd-b']);

    const result = await consumers.drain(10_000);
    const committed = await database.pool.query<{ position: string }>(
      'select max(position) as position from events',
    );
    expect(result).toEqual({ drained: true, position: BigInt(committed.rows[0]!.position), pending: [] });
    expect(a.calls.map((event) => event.id)).toEqual(await logOrder(ids));
    expect(b.calls).toHaveLength(0);
    await consumers.stop();
  });
});
