import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { containerStack } from './stack.ts';

const stack = containerStack();

describe.skipIf(!stack)('Kafka in a container', () => {
  it('takes messages from an idempotent producer and hands them to a consumer group in key order', async () => {
    const kafka = new Kafka({
      clientId: 'containers-smoke',
      brokers: stack!.kafkaBrokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    const topic = `smoke-${randomUUID()}`;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });
    await admin.disconnect();

    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const sent = Array.from({ length: 10 }, (_, n) => ({
      key: `stream-${n % 2}`,
      value: JSON.stringify({ n }),
      headers: { ce_id: randomUUID(), ce_type: 'thing_happened' },
    }));
    await producer.send({ topic, messages: sent });
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: `smoke-${randomUUID()}` });
    const received: { key: string; n: number; type: string }[] = [];
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        received.push({
          key: message.key!.toString(),
          n: JSON.parse(message.value!.toString()).n,
          type: String(message.headers?.ce_type),
        });
        if (received.length === sent.length) finish();
      },
    });
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    await consumer.disconnect();

    expect(received).toHaveLength(sent.length);
    expect(received.every((message) => message.type === 'thing_happened')).toBe(true);
    // One key, one partition: each key's messages keep the order they were sent in.
    for (const key of ['stream-0', 'stream-1']) {
      const ns = received.filter((message) => message.key === key).map((message) => message.n);
      expect(ns).toEqual([...ns].sort((a, b) => a - b));
    }
  });
});
