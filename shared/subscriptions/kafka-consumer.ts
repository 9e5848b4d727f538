import type { Admin, Consumer, EachMessageHandler, Kafka } from 'kafkajs';
import type { Clock } from '../clock.ts';
import type { RecordedEvent } from '../event-store/event-store.ts';
import { isConnectionError } from '../db/connection-errors.ts';
import { inTransaction, type Pool, type PoolClient } from '../db/pool.ts';
import type { Logger } from '../logging/logger.ts';
import { fromKafkaMessage, NotAnEventMessageError } from './cloud-events.ts';
import { assertConsumerName, wants, type EventConsumer, type RunningConsumer } from './event-consumer.ts';
import { RELAY_CHECKPOINT } from './kafka.ts';
import { CONNECTION_RETRY_MAX_MS, Pause, backoffMs } from './pause.ts';
import { handleOnce } from './processed-events.ts';

export interface KafkaConsumerDeps {
  pool: Pool;
  kafka: Kafka;
  /** The relay's topic. */
  topic: string;
  /** The consumer group (the consumer's name unless given). */
  groupId?: string;
  /** How long the group waits for a silent member before giving its partitions to others (ms). */
  sessionTimeoutMs?: number;
  logger?: Logger;
  /** The service clock: when each event was handled (processed_events, retention). */
  clock?: Clock;
  /** Poll interval of `caughtUp` (ms). */
  pollMs?: number;
}

class StoppingError extends Error {}

/** What the steps of one running Kafka consumer share; `stopping` and the clients change as it runs. */
interface ConsumerRun {
  consumer: EventConsumer;
  pool: Pool;
  kafka: Kafka;
  topic: string;
  groupId: string;
  sessionTimeoutMs: number;
  log: Logger | undefined;
  clock: Clock | undefined;
  pollMs: number;
  pause: Pause;
  stopping: boolean;
  /** The consumer that runs, once connected. */
  client?: Consumer;
  /** The consumer being connected (let go of when stopped meanwhile). */
  connecting?: Consumer;
  /** The admin client `caughtUp` reads the topic's end offsets with, made on first need. */
  admin?: Promise<Admin>;
}

/** Records the next offset of a partition as handled by this consumer (never moving it back). */
const recordOffset = (
  db: Pick<PoolClient, 'query'>,
  { consumer, topic }: ConsumerRun,
  partition: number,
  next: string,
) =>
  db.query(
    `insert into kafka_consumer_offsets (consumer, topic, partition, next_offset) values ($1, $2, $3, $4)
     on conflict (consumer, topic, partition) do update
     set next_offset = greatest(kafka_consumer_offsets.next_offset, excluded.next_offset), updated_at = now()`,
    [consumer.name, topic, partition, next],
  );

/**
 * Handles the event in a transaction with its dedupe row and its offset; a failure is
 * retried in place with back-off, heartbeating meanwhile, until it succeeds or the consumer stops.
 */
async function handleWithRetries(
  run: ConsumerRun,
  event: RecordedEvent,
  partition: number,
  next: string,
  heartbeat: () => Promise<void>,
) {
  const { pool, consumer, clock, log, pause } = run;
  for (let failures = 0; ;) {
    if (run.stopping) throw new StoppingError('consumer stopping; the message is offered again');
    try {
      await inTransaction(pool, async (tx) => {
        await handleOnce(tx, consumer, event, clock);
        await recordOffset(tx, run, partition, next);
      });
      return;
    } catch (error) {
      failures++;
      // The database unreachable says nothing about the event: try again soon after it is back.
      const wait = backoffMs(failures, isConnectionError(error) ? CONNECTION_RETRY_MAX_MS : undefined);
      log?.error(
        { err: error, eventId: event.id, type: event.type, partition, failures, retryInMs: wait },
        'consumer failed to handle an event; it is offered again',
      );
      for (let waited = 0; waited < wait && !run.stopping; waited += 1000) {
        await pause.sleep(Math.min(1000, wait - waited));
        await heartbeat().catch(() => undefined);
      }
    }
  }
}

/** The handler of each message: a foreign message or an unwanted type only moves the offset. */
function messageHandler(run: ConsumerRun): EachMessageHandler {
  const { pool, consumer, log } = run;
  return async ({ message, partition, heartbeat }) => {
    const next = String(BigInt(message.offset) + 1n);
    let event: RecordedEvent;
    try {
      event = fromKafkaMessage(message);
    } catch (error) {
      if (!(error instanceof NotAnEventMessageError)) throw error;
      log?.warn({ partition, offset: message.offset, reason: error.message }, 'skipping a foreign message');
      await recordOffset(pool, run, partition, next);
      return;
    }
    if (!wants(consumer, event.type)) {
      await recordOffset(pool, run, partition, next);
      return;
    }
    await handleWithRetries(run, event, partition, next, heartbeat);
  };
}

/** Connects, subscribes and runs; keeps trying with back-off until it runs or the consumer stops. */
async function connectLoop(run: ConsumerRun, eachMessage: EachMessageHandler) {
  const { kafka, groupId, sessionTimeoutMs, topic, log, pause } = run;
  for (let attempt = 1; !run.stopping; attempt++) {
    // An idle fetch waits at most a second: a stop (which waits for the fetch) stays short.
    const candidate = kafka.consumer({
      groupId,
      maxWaitTimeInMs: 1000,
      sessionTimeout: sessionTimeoutMs,
      heartbeatInterval: Math.min(3000, Math.floor(sessionTimeoutMs / 3)),
    });
    run.connecting = candidate;
    try {
      await candidate.connect();
      if (run.stopping) break;
      await candidate.subscribe({ topic, fromBeginning: true });
      candidate.on(candidate.events.CRASH, ({ payload }) => {
        // kafkajs restarts after retriable errors; after the others, join again.
        if (payload.restart || run.stopping) return;
        log?.error({ err: payload.error }, 'consumer crashed; joining the group again');
        run.client = undefined;
        void candidate.disconnect().finally(() => {
          if (!run.stopping) begin(run, eachMessage);
        });
      });
      await candidate.run({ eachMessage });
      if (run.stopping) break;
      run.client = candidate;
      return;
    } catch (error) {
      await candidate.disconnect().catch(() => undefined);
      const wait = backoffMs(attempt);
      log?.error({ err: error, retryInMs: wait }, 'consumer cannot reach Kafka; retrying');
      await pause.sleep(wait);
    }
  }
}

/** Connects in the background and keeps trying: the service runs while Kafka is down. */
function begin(run: ConsumerRun, eachMessage: EachMessageHandler) {
  void connectLoop(run, eachMessage).finally(async () => {
    // Stopped while connecting: let go of what was half set up.
    if (run.stopping && run.connecting && run.connecting !== run.client)
      await run.connecting.disconnect().catch(() => undefined);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The relay's checkpoint: every event up to it is on the topic. */
async function relayCheckpoint(pool: Pool) {
  const result = await pool.query<{ position: string }>('select position from checkpoints where name = $1', [
    RELAY_CHECKPOINT,
  ]);
  return BigInt(result.rows[0]?.position ?? 0);
}

/** Every partition's end offset reached by this consumer's recorded offsets (any instance). */
async function groupAtEnd(run: ConsumerRun) {
  const { kafka, pool, consumer, topic } = run;
  run.admin ??= (async () => {
    const created = kafka.admin();
    await created.connect();
    return created;
  })();
  const connected = await run.admin.catch((error: unknown) => {
    run.admin = undefined;
    throw error;
  });
  const ends = await connected.fetchTopicOffsets(topic);
  const recorded = await pool.query<{ partition: number; next_offset: string }>(
    'select partition, next_offset from kafka_consumer_offsets where consumer = $1 and topic = $2',
    [consumer.name, topic],
  );
  const offsets = new Map(recorded.rows.map((row) => [row.partition, BigInt(row.next_offset)]));
  return ends.every((end) => BigInt(end.high) <= (offsets.get(end.partition) ?? BigInt(end.low)));
}

/** Waits until the event at `position` is on the topic, then until the group has handled every partition. */
async function caughtUp(run: ConsumerRun, position: bigint, timeoutMs: number) {
  const { pool, pollMs, log } = run;
  const deadline = Date.now() + timeoutMs;
  while (!run.stopping && (await relayCheckpoint(pool)) < position) {
    if (Date.now() >= deadline) return false;
    await sleep(pollMs);
  }
  while (!run.stopping) {
    try {
      if (await groupAtEnd(run)) return true;
    } catch (error) {
      log?.warn({ err: error }, 'could not read the group offsets; trying again');
    }
    if (Date.now() >= deadline) return false;
    await sleep(pollMs);
  }
  return false;
}

/**
 * Adapter (b): a Kafka consumer group (group id = consumer name, or `groupId`) on the relay's topic.
 * Each message is turned back into a RecordedEvent (shared/subscriptions/cloud-events.ts)
 * and handled in a transaction with its dedupe row; its offset is committed only after
 * that transaction. A failing handler is retried in place with back-off (heartbeats keep
 * the group membership), so a partition's order is kept. A new group starts at the
 * beginning of the topic; events it already handled through the log adapter are skipped
 * by their dedupe rows.
 *
 * `caughtUp(position)` waits until the relay's checkpoint has reached `position` (so the
 * event is on the topic), then until the consumer has handled every partition up to its
 * end. The offsets it compares are its own (`kafka_consumer_offsets`, written in the
 * handling transaction), so the answer covers every instance of the group and restarts
 * without asking the broker for the group's committed offsets (those lag behind: kafkajs
 * commits them after the handling transactions, in the background).
 *
 * Offsets are committed to Kafka only for messages whose transaction has committed: a
 * process killed at any point has its partitions taken over (after the session timeout)
 * from the last committed offset, and the events handled since then are skipped by their
 * dedupe rows (test/integration/events/kafka-fault-consumer-kill.test.ts).
 */
export async function startKafkaConsumer(
  consumer: EventConsumer,
  {
    pool,
    kafka,
    topic,
    groupId = consumer.name,
    sessionTimeoutMs = 30_000,
    logger,
    clock,
    pollMs = 100,
  }: KafkaConsumerDeps,
): Promise<RunningConsumer> {
  assertConsumerName(consumer.name);
  const run: ConsumerRun = {
    consumer,
    pool,
    kafka,
    topic,
    groupId,
    sessionTimeoutMs,
    log: logger?.child({ consumer: consumer.name, adapter: 'kafka' }),
    clock,
    pollMs,
    pause: new Pause(),
    stopping: false,
  };
  begin(run, messageHandler(run));

  return {
    name: consumer.name,
    adapter: 'kafka',
    caughtUp: (position, timeoutMs = 30_000) => caughtUp(run, position, timeoutMs),
    async stop() {
      run.stopping = true;
      run.pause.interrupt();
      // A connection still being attempted is not waited for: connectLoop lets it go.
      await run.client?.disconnect();
      await (await run.admin?.catch(() => undefined))?.disconnect();
    },
  };
}
