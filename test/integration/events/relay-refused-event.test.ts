import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { RelayHealth } from '../../../services/events/relay-health.ts';
import { startKafkaRelay } from '../../../services/events/start-relay.ts';
import type { KafkaRelay } from '../../../services/events/kafka-relay.ts';
import { createLogger } from '../../../shared/logging/logger.ts';
import { RELAY_CHECKPOINT } from '../../../shared/subscriptions/kafka.ts';
import { isolatedStream, readTopic, testBrokers, type ReceivedMessage } from '../../helpers/kafka-topic.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../helpers/service.ts';

const brokers = testBrokers();
const SECRET_MARKER = 'do-not-log-this-value';
let service: TestService;
let relay: KafkaRelay | undefined;
let topic: string;
let env: Record<string, string>;
const logLines: string[] = [];

beforeEach(async () => {
  const stream = isolatedStream();
  topic = stream.topic;
  env = { KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC: topic, KAFKA_GROUP_PREFIX: stream.groupPrefix };
  logLines.length = 0;
  const logger = createLogger('info', { write: (line: string) => void logLines.push(line) });
  service = await startTestService(env, { logger });
  // A topic that takes no message over 2 KiB: the broker refuses the big event for good.
  const admin = new Kafka({ brokers, clientId: 'test-admin', logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  await admin.createTopics({
    waitForLeaders: true,
    topics: [{ topic, numPartitions: 3, configEntries: [{ name: 'max.message.bytes', value: '2048' }] }],
  });
  await admin.disconnect();
});

afterEach(async () => {
  await relay?.stop();
  relay = undefined;
  await service?.stop();
});

const append = async (stream: string, data: Record<string, unknown>) => {
  const id = randomUUID();
  await service.context.eventStore.append(stream, [{ id, type: 'test.noted', data, metadata: {} }], 'any');
  return id;
};

const until = (ids: string[]) => (messages: ReceivedMessage[]) =>
  ids.every((id) => messages.some((message) => message.headers.ce_id === id));

const readyz = async () => {
  const response = await fetch(`${service.url}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

const skip = (eventId: string) =>
  fetch(`${service.url}/admin/v1/relay/skip-event`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ event_id: eventId }),
  });

describe('an event the broker refuses (against the Apache Kafka broker)', { timeout: 60_000 }, () => {
  test('stalls the relay visibly: retried with back-off, logged without data, not ready, skipped by the operator', async () => {
    const before = [await append('stream-a', { n: 1 }), await append('stream-b', { n: 2 })];
    const big = await append('stream-a', { n: 3, blob: `${SECRET_MARKER}${'x'.repeat(5000)}` });
    const after = [await append('stream-a', { n: 4 }), await append('stream-c', { n: 5 })];

    const health = new RelayHealth(3);
    service.context.relayHealth = health;
    relay = startKafkaRelay(service.context, env)!;

    // Retried (one event at a time, with back-off) until it is reported as stalled on that event.
    await expect.poll(() => health.stalled, { timeout: 20_000, interval: 100 }).toBe(true);
    const stalled = await readyz();
    expect(stalled.status).toBe(503);
    expect(stalled.body).toMatchObject({
      status: 'not_ready',
      database: 'ok',
      relay: {
        status: 'stalled',
        event_id: big,
        event_type: 'test.noted',
        last_error: expect.stringContaining('MESSAGE_TOO_LARGE'),
      },
    });
    expect(stalled.body.relay.retries).toBeGreaterThanOrEqual(3);
    // The events before it are on the topic; nothing after it on its key. (The first attempt
    // sent all five in one request: the broker refuses per partition, so the other keys'
    // partitions took theirs; they go out again one by one: at least once.)
    const early = await readTopic(brokers, topic, until(before), 10_000);
    const earlyIds = early.map((message) => message.headers.ce_id);
    expect(earlyIds).toEqual(expect.arrayContaining(before));
    expect(earlyIds).not.toContain(big);
    expect(earlyIds).not.toContain(after[0]);
    const checkpoint = async () =>
      (
        await service.database.pool.query<{ position: string }>(
          'select position from checkpoints where name = $1',
          [RELAY_CHECKPOINT],
        )
      ).rows[0]?.position;
    const stalledAt = await checkpoint();

    // Reported once, with the event and the broker's error, and no event data in any line.
    const reports = logLines.filter((line) => line.includes('relay is stalled'));
    expect(reports).toHaveLength(1);
    expect(JSON.parse(reports[0]!)).toMatchObject({
      level: 50,
      eventId: big,
      eventType: 'test.noted',
      error: expect.stringContaining('MESSAGE_TOO_LARGE'),
    });
    expect(logLines.join('\n')).not.toContain(SECRET_MARKER);

    // The operator may skip only the event the relay is stalled on.
    const wrong = await skip(after[0]!);
    expect(wrong.status).toBe(409);
    expect(await wrong.json()).toMatchObject({ code: 'relay_not_stalled' });
    expect(await checkpoint()).toBe(stalledAt);

    const skipped = await skip(big);
    expect(skipped.status).toBe(200);
    expect(await skipped.json()).toMatchObject({
      event_id: big,
      event_type: 'test.noted',
      parked_as: 'relay:kafka',
    });

    // The relay passes over it and goes on; the service is ready again.
    const head = await service.context.eventStore.headPosition();
    expect(await relay.waitForPosition(head, 20_000)).toBe(true);
    await expect.poll(async () => (await readyz()).status, { timeout: 5000 }).toBe(200);
    expect((await readyz()).body.relay).toBeUndefined();
    const messages = await readTopic(brokers, topic, until([...before, ...after]), 10_000);
    expect(new Set(messages.map((message) => message.headers.ce_id))).toEqual(new Set([...before, ...after]));
    // Stream a's events in order, without the skipped one.
    const streamA = messages.filter((message) => message.key === 'stream-a').map((m) => m.headers.ce_id);
    expect([...new Set(streamA)]).toEqual([before[0], after[0]]);
    const parked = await service.database.pool.query(
      'select event_id, error_code, error_message from parked_events where projection = $1',
      [RELAY_CHECKPOINT],
    );
    expect(parked.rows).toEqual([
      {
        event_id: big,
        error_code: 'relay_skipped',
        error_message: expect.stringContaining('MESSAGE_TOO_LARGE'),
      },
    ]);
  });
});
