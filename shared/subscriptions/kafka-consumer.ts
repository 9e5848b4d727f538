import type { Admin, Consumer, Kafka } from 'kafkajs';
import { inTransaction, type Pool } from '../db/pool.ts';
import type { Logger } from '../logger.ts';
import { fromKafkaMessage, NotAnEventMessageError } from './cloud-events.ts';
import { assertConsumerName, wants, type EventConsumer, type RunningConsumer } from './event-consumer.ts';
import { RELAY_CHECKPOINT } from './kafka.ts';
import { Pause, backoffMs } from './pause.ts';
import { handleOnce } from './processed-events.ts';

export interface KafkaConsumerDeps {
  pool: Pool;
  kafka: Kafka;
  /** The relay's topic. */
  topic: string;
  logger?: Logger;
  /** Poll interval of `caughtUp` (ms). */
  pollMs?: number;
}

class StoppingError extends Error {}

/**
 * Adapter (b): a Kafka consumer group (group id = consumer name) on the relay's topic.
 * Each message is turned back into a RecordedEvent (shared/subscriptions/cloud-events.ts)
 * and handled in a transaction with its dedupe row; its offset is committed only after
 * that transaction. A failing handler is retried in place with back-off (heartbeats keep
 * the group membership), so a partition's order is kept. A new group starts at the
 * beginning of the topic; events it already handled through the log adapter are skipped
 * by their dedupe rows.
 *
 * `caughtUp(position)` waits until the relay's checkpoint has reached `position` (so the
 * event is on the topic), then until the group's committed offset of every partition has
 * reached that partition's end.
 */
export async function startKafkaConsumer(
  consumer: EventConsumer,
  { pool, kafka, topic, logger, pollMs = 100 }: KafkaConsumerDeps,
): Promise<RunningConsumer> {
  assertConsumerName(consumer.name);
  const log = logger?.child({ consumer: consumer.name, adapter: 'kafka' });
  const pause = new Pause();
  let stopping = false;
  const client: Consumer = kafka.consumer({ groupId: consumer.name });
  await client.connect();
  await client.subscribe({ topic, fromBeginning: true });
  await client.run({
    eachMessage: async ({ message, partition, heartbeat }) => {
      let event;
      try {
        event = fromKafkaMessage(message);
      } catch (error) {
        if (!(error instanceof NotAnEventMessageError)) throw error;
        log?.warn({ partition, offset: message.offset, reason: error.message }, 'skipping a foreign message');
        return;
      }
      if (!wants(consumer, event.type)) return;
      for (let failures = 0; ; ) {
        if (stopping) throw new StoppingError('consumer stopping; the message is offered again');
        try {
          await inTransaction(pool, (tx) => handleOnce(tx, consumer, event));
          return;
        } catch (error) {
          failures++;
          const wait = backoffMs(failures);
          log?.error(
            { err: error, eventId: event.id, type: event.type, partition, failures, retryInMs: wait },
            'consumer failed to handle an event; it is offered again',
          );
          for (let waited = 0; waited < wait && !stopping; waited += 1000) {
            await pause.sleep(Math.min(1000, wait - waited));
            await heartbeat().catch(() => undefined);
          }
        }
      }
    },
  });

  let admin: Promise<Admin> | undefined;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const relayCheckpoint = async () => {
    const result = await pool.query<{ position: string }>('select position from checkpoints where name = $1', [
      RELAY_CHECKPOINT,
    ]);
    return BigInt(result.rows[0]?.position ?? 0);
  };

  const groupAtEnd = async () => {
    admin ??= (async () => {
      const created = kafka.admin();
      await created.connect();
      return created;
    })();
    const connected = await admin.catch((error: unknown) => {
      admin = undefined;
      throw error;
    });
    const ends = await connected.fetchTopicOffsets(topic);
    // A group the coordinator does not know yet (still joining) has committed nothing.
    const [committed] = await connected
      .fetchOffsets({ groupId: consumer.name, topics: [topic] })
      .catch((error: { type?: string }) => {
        if (error.type === 'UNKNOWN_MEMBER_ID' || error.type === 'GROUP_ID_NOT_FOUND') return [];
        throw error;
      });
    const offsetOf = (partition: number) =>
      BigInt(committed?.partitions.find((entry) => entry.partition === partition)?.offset ?? '-1');
    return ends.every((end) => BigInt(end.high) === 0n || offsetOf(end.partition) >= BigInt(end.high));
  };

  return {
    name: consumer.name,
    adapter: 'kafka',
    async caughtUp(position, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!stopping && (await relayCheckpoint()) < position) {
        if (Date.now() >= deadline) return false;
        await sleep(pollMs);
      }
      while (!stopping) {
        try {
          if (await groupAtEnd()) return true;
        } catch (error) {
          log?.warn({ err: error }, 'could not read the group offsets; trying again');
        }
        if (Date.now() >= deadline) return false;
        await sleep(pollMs);
      }
      return false;
    },
    async stop() {
      stopping = true;
      pause.interrupt();
      await client.disconnect();
      await (await admin?.catch(() => undefined))?.disconnect();
    },
  };
}
