import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import { RELAY_CHECKPOINT } from '../../../shared/subscriptions/kafka.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { isolatedStream, readTopic, testBrokers, type ReceivedMessage } from '../../helpers/kafka-topic.ts';
import { startKafkaWorker, type KafkaWorker } from '../../helpers/kafka-worker.ts';

const brokers = testBrokers();
const BATCH = 50;
let database: TestDatabase;
let store: PostgresEventStore;
let env: Record<string, string>;
const workers: KafkaWorker[] = [];

beforeEach(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore(database.pool, database.url);
  env = {
    DATABASE_URL: database.url,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC: isolatedStream().topic,
    RELAY_BATCH_SIZE: String(BATCH),
  };
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.kill()));
  await store?.close();
  await database?.drop();
});

const checkpoint = async () =>
  BigInt(
    (
      await database.pool.query<{ position: string }>('select position from checkpoints where name = $1', [
        RELAY_CHECKPOINT,
      ])
    ).rows[0]?.position ?? 0,
  );

const relayProcess = async () => {
  const worker = await startKafkaWorker('relay', env);
  workers.push(worker);
  return worker;
};

describe(
  'the relay killed mid-backlog (SIGKILL of its process, Apache Kafka broker)',
  { timeout: 90_000 },
  () => {
    test('after a restart every event is on the topic, in order per key; duplicates only from the last unacknowledged batch', async () => {
      // 3000 events over 20 streams, interleaved ten at a time.
      const streams = Array.from({ length: 20 }, (_, index) => `onboarding-${index}`);
      const ids: string[] = [];
      for (let round = 0; round < 15; round++) {
        for (const stream of streams) {
          const events = Array.from({ length: 10 }, (_, index) => ({
            id: randomUUID(),
            type: 'test.item_added',
            data: { round, index },
            metadata: {},
          }));
          ids.push(...events.map((event) => event.id));
          await store.append(stream, events, 'any');
        }
      }
      const head = await store.headPosition();

      const first = await relayProcess();
      await expect.poll(checkpoint, { timeout: 30_000, interval: 20 }).toBeGreaterThan(head / 4n);
      await first.kill();
      const killedAt = await checkpoint();
      expect(killedAt, 'killed mid-backlog').toBeLessThan(head);

      await relayProcess();
      await expect.poll(checkpoint, { timeout: 30_000, interval: 50 }).toBe(head);

      const messages = await readTopic(
        brokers,
        env.KAFKA_TOPIC!,
        (received) => new Set(received.map((message) => message.headers.ce_id)).size >= ids.length,
        30_000,
      );
      const received = new Set(messages.map((message) => message.headers.ce_id));
      expect(
        ids.filter((id) => !received.has(id)),
        'missing on the topic',
      ).toEqual([]);
      // At least once: what the killed relay had sent but not checkpointed goes out again.
      const duplicates = messages.length - ids.length;
      expect(duplicates).toBeGreaterThanOrEqual(0);
      expect(duplicates).toBeLessThanOrEqual(BATCH);
      expectOrderedPerKey(messages);
    });
  },
);

/** Per key: one partition, and the first delivery of each event in revision order. */
function expectOrderedPerKey(messages: ReceivedMessage[]) {
  const byKey = new Map<string, ReceivedMessage[]>();
  for (const message of messages) byKey.set(message.key!, [...(byKey.get(message.key!) ?? []), message]);
  for (const [key, list] of byKey) {
    expect(new Set(list.map((message) => message.partition)).size, `partitions of ${key}`).toBe(1);
    const seen = new Set<string>();
    const revisions = list
      .filter((message) => !seen.has(message.headers.ce_id!) && seen.add(message.headers.ce_id!))
      .map((message) => Number(message.headers.ce_revision));
    expect(revisions, `revisions of ${key}`).toEqual(revisions.map((_, index) => index));
  }
}
