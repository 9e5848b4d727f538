/**
 * /metrics with KAFKA_BROKERS against the Apache Kafka broker: the relay's publish outcomes
 * and stall (through a refused event and the operator's skip), and each consumer group's lag
 * (the topic's end offsets against kafka_consumer_offsets).
 */
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { KafkaRelay } from '../../../services/events/kafka-relay.ts';
import { createKafka } from '../../../shared/subscriptions/kafka.ts';
import { isolatedStream, testBrokers } from '../../helpers/kafka-topic.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../helpers/service.ts';

interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string }[];
}

const brokers = testBrokers();
let service: TestService;
let relay: KafkaRelay | undefined;
let topic: string;
let groupPrefix: string;

beforeEach(async () => {
  ({ topic, groupPrefix } = isolatedStream());
  // A topic that takes no message over 2 KiB: the broker refuses the big event for good.
  // Made before the consumers start, which would otherwise have the broker create it.
  const admin = new Kafka({ brokers, clientId: 'test-admin', logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  await admin.createTopics({
    waitForLeaders: true,
    topics: [{ topic, numPartitions: 3, configEntries: [{ name: 'max.message.bytes', value: '2048' }] }],
  });
  await admin.disconnect();
  // The consumers and the metrics read the topic and group prefix from the process environment.
  Object.assign(process.env, { KAFKA_TOPIC: topic, KAFKA_GROUP_PREFIX: groupPrefix });
  service = await startTestService({
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC: topic,
    KAFKA_GROUP_PREFIX: groupPrefix,
  });
});

afterEach(async () => {
  await relay?.stop();
  relay = undefined;
  await service?.stop();
  delete process.env.KAFKA_TOPIC;
  delete process.env.KAFKA_GROUP_PREFIX;
});

async function scrape(): Promise<Family[]> {
  const answer = await fetch(`${service.url}/metrics`);
  expect(answer.status).toBe(200);
  return parsePrometheusTextFormat(await answer.text()) as Family[];
}

async function sample(
  name: string,
  type: string,
  labels: Record<string, string> = {},
): Promise<number | undefined> {
  const found = (await scrape()).find((candidate) => candidate.name === name);
  expect(found, name).toBeDefined();
  expect(found!.type).toBe(type);
  const match = found!.metrics.find((metric) =>
    Object.entries(labels).every(([key, want]) => metric.labels?.[key] === want),
  );
  return match === undefined ? undefined : Number(match.value);
}

const append = async (stream: string, data: Record<string, unknown>) => {
  const id = randomUUID();
  await service.context.eventStore.append(stream, [{ id, type: 'test.noted', data, metadata: {} }], 'any');
  return id;
};

describe('Kafka metrics (against the Apache Kafka broker)', { timeout: 60_000 }, () => {
  test('relay outcomes count published, failed and skipped events; the stall gauge follows /readyz', async () => {
    await append('stream-a', { n: 1 });
    await append('stream-b', { n: 2 });
    const big = await append('stream-a', { n: 3, blob: 'x'.repeat(5000) });
    await append('stream-c', { n: 4 });
    expect(await sample('onboarding_relay_stalled', 'GAUGE')).toBe(0);
    expect(await sample('onboarding_relay_events_total', 'COUNTER', { outcome: 'published' })).toBe(0);

    // The service's own relay health (the one /readyz and /metrics read), fast retries.
    relay = new KafkaRelay(
      service.database.pool,
      service.context.eventStore,
      createKafka(brokers, 'test-relay'),
      {
        topic,
        health: service.context.relayHealth,
        retryMaxMs: 200,
      },
    );
    relay.start();
    await expect.poll(() => sample('onboarding_relay_stalled', 'GAUGE'), { timeout: 30_000 }).toBe(1);
    expect((await fetch(`${service.url}/readyz`)).status).toBe(503);
    const failed = (await sample('onboarding_relay_events_total', 'COUNTER', { outcome: 'failed' }))!;
    expect(failed).toBeGreaterThanOrEqual(5); // one failed send per retry, at least
    expect(await sample('onboarding_relay_events_total', 'COUNTER', { outcome: 'skipped' })).toBe(0);

    const skip = await fetch(`${service.url}/admin/v1/relay/skip-event`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: big }),
    });
    expect(skip.status).toBe(200);
    expect(await relay.waitForPosition(await service.context.eventStore.headPosition(), 20_000)).toBe(true);
    expect(await sample('onboarding_relay_stalled', 'GAUGE')).toBe(0);
    expect(await sample('onboarding_relay_events_total', 'COUNTER', { outcome: 'skipped' })).toBe(1);
    // Three events are on the topic (some twice: a refused batch is partly taken per partition).
    expect(
      await sample('onboarding_relay_events_total', 'COUNTER', { outcome: 'published' }),
    ).toBeGreaterThanOrEqual(3);
    expect(
      await sample('onboarding_relay_events_total', 'COUNTER', { outcome: 'failed' }),
    ).toBeGreaterThanOrEqual(failed);
  });

  test('consumer group lag: messages after each group offsets, 0 once a group has caught up', async () => {
    for (let n = 0; n < 6; n++) await append(`stream-${n}`, { n });
    relay = new KafkaRelay(
      service.database.pool,
      service.context.eventStore,
      createKafka(brokers, 'test-relay'),
      {
        topic,
        health: service.context.relayHealth,
      },
    );
    relay.start();
    expect(await relay.waitForPosition(await service.context.eventStore.headPosition(), 20_000)).toBe(true);
    expect((await service.context.consumers.drain(30_000)).drained).toBe(true);

    // A group that handled partition 0 to its end and nothing of the others.
    const admin = new Kafka({ brokers, clientId: 'test-admin', logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(topic);
    await admin.disconnect();
    const end0 = ends.find((end) => end.partition === 0)!.high;
    await service.database.pool.query(
      `insert into kafka_consumer_offsets (consumer, topic, partition, next_offset) values ('late-reader', $1, 0, $2)`,
      [topic, end0],
    );
    const expected = ends
      .filter((end) => end.partition !== 0)
      .reduce((sum, end) => sum + Number(end.high) - Number(end.low), 0);
    expect(expected).toBeGreaterThan(0);

    const name = 'onboarding_kafka_consumer_lag_events';
    expect(await sample(name, 'GAUGE', { group: `${groupPrefix}late-reader`, consumer: 'late-reader' })).toBe(
      expected,
    );
    const running = service.context.consumers.names;
    expect(running.length).toBeGreaterThan(0);
    for (const consumer of running) {
      expect(await sample(name, 'GAUGE', { group: `${groupPrefix}${consumer}`, consumer }), consumer).toBe(0);
    }
  });
});
