import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type IHeaders } from 'kafkajs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT_TOPIC } from '../../../shared/subscriptions/kafka.ts';
import { readTopic } from '../../helpers/kafka-topic.ts';
import { startMokapi, type Mokapi } from '../../helpers/mokapi.ts';

/**
 * mokapi serves the AsyncAPI document as a broker and checks every produced record against
 * it: the one thing a real broker does not do. The relay's own behaviour is tested against
 * the Apache Kafka broker (relay-kafka.test.ts).
 */
const TOPIC = DEFAULT_TOPIC;
let mokapi: Mokapi;

beforeEach(async () => {
  mokapi = await startMokapi();
});

afterEach(async () => {
  await mokapi?.stop();
});

describe('the AsyncAPI document as a contract (kafkajs against mokapi)', { timeout: 60_000 }, () => {
  test('mokapi refuses a message that breaks the AsyncAPI document', async () => {
    const kafka = new Kafka({
      brokers: mokapi.brokers,
      clientId: 'test-bad-producer',
      logLevel: logLevel.NOTHING,
    });
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const id = randomUUID();
    const good: IHeaders = {
      ce_specversion: '1.0',
      ce_id: id,
      ce_source: '/client-onboarding',
      ce_type: 'onboarding.completed',
      ce_time: '2025-01-01T10:00:00.000Z',
      ce_subject: `onboarding-${id}`,
      'content-type': 'application/json',
      ce_position: '42',
      ce_revision: '7',
      ce_metadata: '{}',
    };
    const data = {
      onboarding_id: id,
      team_id: randomUUID(),
      progress_pct: 100,
      completed_at: '2025-01-01T10:00:00Z',
    };
    const send = (headers: IHeaders, value: unknown = data, key: string | null = `onboarding-${id}`) =>
      producer.send({ topic: TOPIC, messages: [{ key, value: JSON.stringify(value), headers }] });
    const { ce_id: _withoutId, ...noId } = good;

    try {
      const rejections: [string, () => Promise<unknown>, RegExp][] = [
        ['no ce_id header', () => send(noId), /required property 'ce_id' is missing/],
        ['another specversion', () => send({ ...good, ce_specversion: '0.3' }), /does not match const '1.0'/],
        ['ce_time not a time', () => send({ ...good, ce_time: 'yesterday' }), /format 'date-time'/],
        [
          'ce_type not an event type',
          () => send({ ...good, ce_type: 'Onboarding Completed' }),
          /regex pattern/,
        ],
        ['data not an object', () => send(good, [1, 2, 3]), /expected object but got array/],
        [
          'a timestamp that is not one',
          () => send(good, { ...data, completed_at: 'soon' }),
          /_at\$\/anyOf: does not match/,
        ],
        ['camelCase data', () => send(good, { ...data, teamId: 'x' }), /propertyNames/],
        ['no key', () => send(good, data, null), /invalid key/],
      ];
      for (const [name, attempt, rule] of rejections) {
        const logged = mokapi.logs().length;
        const error = await attempt().then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(error, name).toMatchObject({ name: 'KafkaJSProtocolError', type: 'INVALID_RECORD' });
        // mokapi's log names the rule that was broken.
        await expect.poll(() => mokapi.logs().slice(logged), { timeout: 2000 }).toMatch(rule);
      }
      // The same message with every rule kept is accepted.
      const [accepted] = await send(good);
      expect(accepted).toMatchObject({ topicName: TOPIC, errorCode: 0 });
    } finally {
      await producer.disconnect();
    }
    // Only the good message reached the topic.
    const messages = await readTopic(mokapi.brokers, TOPIC, (received) => received.length >= 1, 10_000);
    expect(messages.map((message) => message.headers.ce_id)).toEqual([id]);
  });
});
