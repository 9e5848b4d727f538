import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { KafkaRelay } from '../../../services/events/kafka-relay.ts';
import type { PoolClient } from '../../../shared/db/pool.ts';
import type { RecordedEvent } from '../../../shared/event-store/event-store.ts';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import { EventConsumers } from '../../../shared/subscriptions/consumers.ts';
import type { EventConsumer, RunningConsumer } from '../../../shared/subscriptions/event-consumer.ts';
import { createKafka, RELAY_CHECKPOINT } from '../../../shared/subscriptions/kafka.ts';
import { startKafkaConsumer } from '../../../shared/subscriptions/kafka-consumer.ts';
import { startLogConsumer } from '../../../shared/subscriptions/log-consumer.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { isolatedStream, testBrokers } from '../../helpers/kafka-topic.ts';

const brokers = testBrokers();
let stream: { topic: string; groupPrefix: string };
let database: TestDatabase;
let store: PostgresEventStore;
const running: { stop(): Promise<void> }[] = [];

beforeEach(async () => {
  stream = isolatedStream();
  database = await createTestDatabase();
  store = new PostgresEventStore(database.pool, database.url);
  await database.pool.query(
    'create table consumer_effects (seq bigserial primary key, consumer text not null, event_id uuid not null)',
  );
});

afterEach(async () => {
  for (const part of running.splice(0).reverse()) await part.stop();
  await store?.close();
  await database?.drop();
});

function startRelay(): KafkaRelay {
  const relay = new KafkaRelay(database.pool, store, createKafka(brokers, 'test-relay'), {
    topic: stream.topic,
  });
  running.push(relay);
  relay.start();
  return relay;
}

async function startKafka(consumer: EventConsumer): Promise<RunningConsumer> {
  const started = await startKafkaConsumer(consumer, {
    pool: database.pool,
    kafka: createKafka(brokers, `test-${consumer.name}`),
    topic: stream.topic,
    groupId: `${stream.groupPrefix}${consumer.name}`,
  });
  running.push(started);
  return started;
}

function recordingConsumer(name: string) {
  const calls: RecordedEvent[] = [];
  const consumer: EventConsumer = {
    name,
    async handle(event: RecordedEvent, tx: PoolClient) {
      calls.push(event);
      await tx.query('insert into consumer_effects (consumer, event_id) values ($1, $2)', [name, event.id]);
    },
  };
  return { consumer, calls };
}

async function appendEvents(count: number, streams: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const id = randomUUID();
    ids.push(id);
    await store.append(
      streams[index % streams.length]!,
      [{ id, type: 'test.item_added', data: { item: index }, metadata: { correlation_id: `c-${index}` } }],
      'any',
    );
  }
  return ids;
}

const effects = async (name: string) =>
  (
    await database.pool.query<{ event_id: string }>(
      'select event_id from consumer_effects where consumer = $1 order by seq',
      [name],
    )
  ).rows.map((row) => row.event_id);

const head = () => store.headPosition();
const sorted = (ids: string[]) => [...ids].sort();

describe(
  'Kafka consumer adapter (consumer groups against the Apache Kafka broker)',
  { timeout: 90_000 },
  () => {
    test('handles every relayed event once, as the recorded event, and skips a replay of the topic', async () => {
      const ids = await appendEvents(20, ['onboarding-a', 'onboarding-b', 'client-c', 'team-d']);
      let relay = startRelay();
      const { consumer, calls } = recordingConsumer('hook-deliveries');
      const group = await startKafka(consumer);
      expect(group.adapter).toBe('kafka');

      expect(await group.caughtUp(await head(), 25_000)).toBe(true);
      const events = await store.readAll({ after: 0n, limit: 1000 });
      expect(sorted(calls.map((event) => event.id))).toEqual(sorted(ids));
      const byId = new Map(calls.map((event) => [event.id, event]));
      for (const event of events) expect(byId.get(event.id)).toEqual(event);
      // Per stream, in revision order.
      for (const stream of ['onboarding-a', 'onboarding-b', 'client-c', 'team-d']) {
        const revisions = calls
          .filter((event) => event.streamId === stream)
          .map((event) => Number(event.revision));
        expect(revisions).toEqual(revisions.map((_, index) => index));
      }

      // The relay publishes everything again (a lost checkpoint): every message is a duplicate.
      await relay.stop();
      await database.pool.query('update checkpoints set position = 0 where name = $1', [RELAY_CHECKPOINT]);
      relay = startRelay();
      expect(await relay.waitForPosition(await head(), 20_000)).toBe(true);
      expect(await group.caughtUp(await head(), 25_000)).toBe(true);

      expect(calls).toHaveLength(20);
      expect(sorted(await effects('hook-deliveries'))).toEqual(sorted(ids));
      const dedupe = await database.pool.query<{ count: string }>(
        "select count(*) as count from processed_events where consumer = 'hook-deliveries'",
      );
      expect(dedupe.rows[0]?.count).toBe('20');

      // A restart of the group resumes after what it handled.
      await group.stop();
      const more = await appendEvents(5, ['onboarding-a', 'client-c']);
      const restarted = await startKafka(consumer);
      expect(await restarted.caughtUp(await head(), 25_000)).toBe(true);
      expect(sorted(calls.slice(20).map((event) => event.id))).toEqual(sorted(more));
      expect(sorted(await effects('hook-deliveries'))).toEqual(sorted([...ids, ...more]));
    });

    test('a consumer that ran on the log moves to Kafka without handling an event twice', async () => {
      const before = await appendEvents(12, ['onboarding-x', 'onboarding-y']);
      const { consumer, calls } = recordingConsumer('automation-rules');
      const onLog = await startLogConsumer(consumer, { pool: database.pool, eventStore: store });
      expect(await onLog.caughtUp(await head(), 10_000)).toBe(true);
      await onLog.stop();
      expect(calls).toHaveLength(12);

      // KAFKA_BROKERS is set now: a new group reads the topic from its beginning.
      startRelay();
      const group = await startKafka(consumer);
      const after = await appendEvents(6, ['onboarding-x', 'onboarding-z']);
      expect(await group.caughtUp(await head(), 25_000)).toBe(true);

      expect(calls.slice(12).map((event) => event.id)).toEqual(expect.arrayContaining(after));
      expect(calls).toHaveLength(18);
      expect(sorted(await effects('automation-rules'))).toEqual(sorted([...before, ...after]));
    });

    test('with KAFKA_BROKERS the consumers run as groups and drain waits for them', async () => {
      startRelay();
      const consumers = new EventConsumers({
        settings: { KAFKA_BROKERS: brokers },
        pool: database.pool,
        eventStore: store,
        env: { KAFKA_TOPIC: stream.topic, KAFKA_GROUP_PREFIX: stream.groupPrefix },
      });
      running.push(consumers);
      const { consumer, calls } = recordingConsumer('mailer');
      const started = await consumers.start(consumer);
      expect(started.adapter).toBe('kafka');
      const ids = await appendEvents(10, ['onboarding-m']);

      const result = await consumers.drain(25_000);
      expect(result).toMatchObject({ drained: true, pending: [] });
      expect(calls.map((event) => event.id)).toEqual(ids);
    });
  },
);
