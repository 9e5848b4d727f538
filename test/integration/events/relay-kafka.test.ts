import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ServiceContext } from '../../../services/app/context.ts';
import { KafkaRelay } from '../../../services/events/kafka-relay.ts';
import { startKafkaRelay } from '../../../services/events/start-relay.ts';
import { loadSettings } from '../../../shared/config/settings.ts';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import { fromKafkaMessage } from '../../../shared/subscriptions/cloud-events.ts';
import { createKafka, RELAY_CHECKPOINT } from '../../../shared/subscriptions/kafka.ts';
import { createLogger } from '../../../shared/logging/logger.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { isolatedStream, readTopic, testBrokers, type ReceivedMessage } from '../../helpers/kafka-topic.ts';

const brokers = testBrokers();
let TOPIC: string;
const DEBUG = process.env.TEST_LOG_LEVEL ? createLogger(process.env.TEST_LOG_LEVEL) : undefined;

let database: TestDatabase;
let store: PostgresEventStore;
const relays: KafkaRelay[] = [];

beforeEach(async () => {
  TOPIC = isolatedStream().topic;
  database = await createTestDatabase();
  store = new PostgresEventStore(database.pool, database.url);
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  await store?.close();
  await database?.drop();
});

function startRelay(batchSize?: number): KafkaRelay {
  const relay = new KafkaRelay(database.pool, store, createKafka(brokers, 'test-relay', DEBUG), {
    logger: DEBUG,
    topic: TOPIC,
    batchSize,
  });
  relays.push(relay);
  relay.start();
  return relay;
}

/** `count` events spread round-robin over `streams`, each with the metadata commands give. */
async function appendEvents(count: number, streams: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const id = randomUUID();
    ids.push(id);
    await store.append(
      streams[index % streams.length]!,
      [
        {
          id,
          type: 'test.item_added',
          data: { item: index, added_at: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString() },
          metadata: { command_id: randomUUID(), correlation_id: `corr-${index}`, causation_id: null },
        },
      ],
      'any',
    );
  }
  return ids;
}

const allEvents = () => store.readAll({ after: 0n, limit: 100_000 });
const head = () => store.headPosition();
const idsOf = (messages: ReceivedMessage[]) => new Set(messages.map((message) => message.headers.ce_id));
const until = (ids: string[]) => (messages: ReceivedMessage[]) => {
  const seen = idsOf(messages);
  return ids.every((id) => seen.has(id));
};

/** Per key: one partition, and revisions rising in partition order (first delivery of each event). */
function expectOrderedPerKey(messages: ReceivedMessage[]) {
  const byKey = new Map<string, ReceivedMessage[]>();
  for (const message of messages) byKey.set(message.key!, [...(byKey.get(message.key!) ?? []), message]);
  for (const [key, list] of byKey) {
    expect(new Set(list.map((message) => message.partition)).size, `partitions of ${key}`).toBe(1);
    const seen = new Set<string>();
    const firstDeliveries = list.filter(
      (message) => !seen.has(message.headers.ce_id!) && seen.add(message.headers.ce_id!),
    );
    const revisions = firstDeliveries.map((message) => Number(message.headers.ce_revision));
    expect(revisions, `revisions of ${key}`).toEqual(revisions.map((_, index) => index));
  }
}

describe('Kafka relay (kafkajs against the Apache Kafka broker)', { timeout: 90_000 }, () => {
  test('publishes every event once, keyed by stream, with CloudEvents binary-mode headers, in order per key', async () => {
    const sealed = { pd: 'v1', subject: randomUUID(), box: 'c2VhbGVkIGJ5IHRoZSB2YXVsdA==' };
    await store.append(
      'client-1',
      [{ type: 'client.created', data: { client_id: randomUUID(), team_id: randomUUID(), name: sealed } }],
      'no_stream',
    );
    const ids = await appendEvents(60, [
      'onboarding-a',
      'onboarding-b',
      'onboarding-c',
      'team-d',
      'client-e',
    ]);
    const relay = startRelay();
    expect(await relay.waitForPosition(await head(), 20_000)).toBe(true);

    const events = await allEvents();
    const messages = await readTopic(brokers, TOPIC, (received) => received.length >= events.length);
    expect(messages).toHaveLength(61);
    expect(idsOf(messages)).toEqual(new Set(events.map((event) => event.id)));
    expect(ids.every((id) => idsOf(messages).has(id))).toBe(true);

    const byId = new Map(events.map((event) => [event.id, event]));
    for (const message of messages) {
      const event = byId.get(message.headers.ce_id!)!;
      expect(message.key).toBe(event.streamId);
      expect(message.headers).toEqual({
        ce_specversion: '1.0',
        ce_id: event.id,
        ce_source: '/client-onboarding',
        ce_type: event.type,
        ce_time: event.recordedAt.toISOString(),
        ce_subject: event.streamId,
        'content-type': 'application/json',
        ce_position: String(event.position),
        ce_revision: String(event.revision),
        ce_metadata: JSON.stringify(event.metadata),
        ...(event.metadata.correlation_id ? { ce_correlationid: event.metadata.correlation_id } : {}),
      });
      // Binary mode: the value is the data, exactly; a sealed personal value stays sealed.
      expect(JSON.parse(message.value!)).toEqual(event.data);
      // And a consumer gets the recorded event back.
      expect(
        fromKafkaMessage({ key: null, value: Buffer.from(message.value!), headers: message.rawHeaders }),
      ).toEqual(event);
    }
    const client = messages.find((message) => message.headers.ce_type === 'client.created')!;
    expect(JSON.parse(client.value!).name).toEqual(sealed);

    expectOrderedPerKey(messages);
    expect(new Set(messages.map((message) => message.partition)).size).toBeGreaterThan(1);
    const checkpoint = await database.pool.query<{ position: string }>(
      'select position from checkpoints where name = $1',
      [RELAY_CHECKPOINT],
    );
    expect(checkpoint.rows[0]?.position).toBe(String(await head()));
  });

  test('the service starts the relay only when KAFKA_BROKERS is set', async () => {
    const context = (brokers: string) =>
      ({
        settings: loadSettings({ KAFKA_BROKERS: brokers }),
        logger: createLogger('silent'),
        pool: database.pool,
        eventStore: store,
      }) as unknown as ServiceContext;
    expect(startKafkaRelay(context(''))).toBeUndefined();

    const ids = await appendEvents(3, ['onboarding-r']);
    const relay = startKafkaRelay(context(brokers.join(',')), { KAFKA_TOPIC: TOPIC })!;
    relays.push(relay);
    expect(await relay.waitForPosition(await head(), 20_000)).toBe(true);
    const messages = await readTopic(brokers, TOPIC, until(ids));
    expect(messages.map((message) => message.headers.ce_id)).toEqual(ids);
  });

  test('a relay stopped mid-way and restarted loses nothing, even when its last checkpoint writes were lost', async () => {
    const streams = [
      'onboarding-1',
      'onboarding-2',
      'onboarding-3',
      'client-4',
      'team-5',
      'onboarding-6',
      'template-7',
    ];
    const first = await appendEvents(600, streams);
    const firstEvents = await allEvents();
    const at200 = firstEvents[199]!.position;

    // Small batches, so the stop comes mid-backlog: as soon as 200 events are acknowledged.
    let relay = startRelay(10);
    expect(await relay.waitForPosition(at200, 20_000)).toBe(true);
    await relay.stop();
    const stoppedAt = relay.position;
    expect(stoppedAt).toBeGreaterThanOrEqual(at200);
    expect(stoppedAt).toBeLessThan(firstEvents[599]!.position);

    // A crash between Kafka's acknowledgement and the checkpoint write loses the last
    // checkpoint moves: the relay will publish those events again.
    const rewound = firstEvents[149]!.position;
    await database.pool.query('update checkpoints set position = $2 where name = $1', [
      RELAY_CHECKPOINT,
      String(rewound),
    ]);

    const second = await appendEvents(300, streams);
    relay = startRelay(50);
    expect(await relay.waitForPosition(await head(), 30_000)).toBe(true);

    const everything = [...first, ...second];
    const messages = await readTopic(brokers, TOPIC, until(everything), 30_000);
    const received = idsOf(messages);
    expect(everything.filter((id) => !received.has(id))).toEqual([]);
    expect(received.size).toBe(900);
    // At least once: the events after the rewound checkpoint up to the stop went out twice.
    const republished = firstEvents.filter(
      (event) => event.position > rewound && event.position <= stoppedAt,
    );
    expect(messages.length).toBe(900 + republished.length);
    expectOrderedPerKey(messages);
  });
});
