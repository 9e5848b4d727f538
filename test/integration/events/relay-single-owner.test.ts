/**
 * The Kafka relay of two worker instances on one database (against the Apache Kafka broker):
 * one owns it (advisory lock on a session of its own), the other waits; when the owner's
 * session dies, the other takes over within seconds, and every event is on the topic once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RELAY_OWNER_LOCK, startOwnedKafkaRelay } from '../../../services/events/start-relay.ts';
import { loadSettings } from '../../../shared/config/settings.ts';
import { createPool, type Pool } from '../../../shared/db/pool.ts';
import type { SingleOwner } from '../../../shared/db/single-owner.ts';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import { createLogger } from '../../../shared/logging/logger.ts';
import { RELAY_CHECKPOINT } from '../../../shared/subscriptions/kafka.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { isolatedStream, readTopic, testBrokers } from '../../helpers/kafka-topic.ts';

const brokers = testBrokers();
const { topic } = isolatedStream();
let database: TestDatabase;
let store: PostgresEventStore;
let otherPool: Pool;
const owners: SingleOwner[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore(database.pool, database.url);
  otherPool = createPool(database.url, 5);
});

afterAll(async () => {
  await Promise.all(owners.map((owner) => owner.stop()));
  await otherPool?.end();
  await store?.close();
  await database?.drop();
});

/** One worker instance's relay: its own pool and event store over the shared database. */
function instance(pool: Pool): SingleOwner {
  const context = {
    settings: loadSettings({ KAFKA_BROKERS: brokers.join(',') }),
    logger: createLogger('silent'),
    pool,
    eventStore: new PostgresEventStore(pool, database.url),
  };
  const owner = startOwnedKafkaRelay(context, { KAFKA_TOPIC: topic })!;
  owners.push(owner);
  return owner;
}

async function append(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  for (const [index, id] of ids.entries()) {
    await store.append(
      `stream-${index % 4}`,
      [{ id, type: 'test.noted', data: { index }, metadata: {} }],
      'any',
    );
  }
  return ids;
}

const relayCaughtUp = async () => {
  const { rows } = await database.pool.query<{ position: string }>(
    'select position from checkpoints where name = $1',
    [RELAY_CHECKPOINT],
  );
  return BigInt(rows[0]?.position ?? -1) === (await store.headPosition());
};

describe('the Kafka relay on two worker instances', { timeout: 60_000 }, () => {
  test('one owns it at a time; the other takes over when the owner dies; each event on the topic once', async () => {
    const first = await append(30);
    const [a, b] = [instance(database.pool), instance(otherPool)];
    await expect.poll(relayCaughtUp, { timeout: 20_000, interval: 100 }).toBe(true);
    expect([a.owning, b.owning].filter(Boolean)).toHaveLength(1);
    const [owner, other] = a.owning ? [a, b] : [b, a];

    // The owner's connection dies, as when its process is killed.
    const high = Math.floor(RELAY_OWNER_LOCK / 2 ** 32);
    const low = RELAY_OWNER_LOCK % 2 ** 32;
    const ended = await database.pool.query(
      `select pg_terminate_backend(pid) from pg_locks
       where locktype = 'advisory' and classid = $1 and objid = $2 and granted`,
      [high, low],
    );
    expect(ended.rowCount).toBe(1);
    const second = await append(20);
    await expect.poll(() => other.owning, { timeout: 10_000, interval: 100 }).toBe(true);
    expect(owner.owning).toBe(false);
    await expect.poll(relayCaughtUp, { timeout: 20_000, interval: 100 }).toBe(true);

    const ids = [...first, ...second];
    const messages = await readTopic(brokers, topic, (seen) => seen.length >= ids.length);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(messages.map((message) => message.headers.ce_id).sort()).toEqual([...ids].sort());
  });
});
