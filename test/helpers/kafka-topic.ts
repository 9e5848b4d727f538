import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type IHeaders } from 'kafkajs';
import { inject } from 'vitest';
import { headerText } from '../../shared/subscriptions/cloud-events.ts';

/** The run's Kafka broker (test/helpers/global-setup.ts). */
export const testBrokers = (): string[] => inject('kafkaBrokers').split(',');

/**
 * A topic and a group prefix no other test uses: every test file shares the one broker, so
 * each test publishes to its own topic and names its own groups.
 */
export function isolatedStream(): { topic: string; groupPrefix: string } {
  const suffix = randomUUID().slice(0, 8);
  return { topic: `test.events.${suffix}`, groupPrefix: `test-${suffix}-` };
}

export interface ReceivedMessage {
  partition: number;
  offset: bigint;
  key: string | undefined;
  value: string | undefined;
  headers: Record<string, string>;
  rawHeaders: IHeaders;
}

/**
 * Reads a topic from the beginning with a throw-away consumer group until `done` says the
 * messages so far are enough (or the time is up), then returns them in partition/offset
 * order.
 */
export async function readTopic(
  brokers: string[],
  topic: string,
  done: (messages: ReceivedMessage[]) => boolean,
  timeoutMs = 20_000,
): Promise<ReceivedMessage[]> {
  const kafka = new Kafka({ brokers, clientId: 'test-reader', logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `test-reader-${randomUUID()}`, maxWaitTimeInMs: 500 });
  const messages: ReceivedMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      void consumer.run({
        eachMessage: async ({ partition, message }) => {
          const headers: Record<string, string> = {};
          for (const name of Object.keys(message.headers ?? {})) {
            headers[name] = headerText(message.headers, name) ?? '';
          }
          messages.push({
            partition,
            offset: BigInt(message.offset),
            key: message.key?.toString(),
            value: message.value?.toString(),
            headers,
            rawHeaders: message.headers ?? {},
          });
          if (done(messages)) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
  return messages.sort((a, b) => a.partition - b.partition || (a.offset < b.offset ? -1 : 1));
}
