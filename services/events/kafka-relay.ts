import { Partitioners, type Admin, type Kafka, type Producer } from 'kafkajs';
import type { Pool, PoolClient } from '../../shared/db/pool.ts';
import type { EventStore, RecordedEvent, Subscription } from '../../shared/event-store/event-store.ts';
import type { Logger } from '../../shared/logging/logger.ts';
import { DEFAULT_CE_SOURCE, toKafkaMessage } from '../../shared/subscriptions/cloud-events.ts';
import { RELAY_CHECKPOINT } from '../../shared/subscriptions/kafka.ts';
import { Pause, backoffMs } from '../../shared/subscriptions/pause.ts';
import { PositionWatch } from '../../shared/subscriptions/position-watch.ts';
import { outwardEvent } from './outward-event.ts';
import { RelayHealth } from './relay-health.ts';

export interface KafkaRelayOptions {
  topic: string;
  /** The ce_source attribute of every message. */
  source?: string;
  /** Partitions when the relay has to create the topic. */
  partitions?: number;
  /** Events per produce request (and per checkpoint move). */
  batchSize?: number;
  /** Checkpoint row in `checkpoints`. */
  checkpoint?: string;
  logger?: Logger;
  /** Where the relay reports failures (readiness reads it); a new one unless given. */
  health?: RelayHealth;
  /** The longest back-off between two attempts of a failing publish (ms). */
  retryMaxMs?: number;
  /**
   * Where the checkpoint is written: the session that holds the relay's ownership lock
   * (services/events/start-relay.ts), so that a relay which lost ownership cannot move it.
   * The pool when omitted.
   */
  checkpointSession?: Pick<PoolClient, 'query'>;
}

/**
 * Publishes every event of the log to one Kafka topic, in log order, as CloudEvents in
 * binary mode (shared/subscriptions/cloud-events.ts), keyed by stream id.
 *
 * At least once, surviving restarts: it reads the log from its checkpoint (`relay:kafka`),
 * sends a batch with an idempotent producer (acks from all in-sync replicas, one request
 * in flight, so retries neither duplicate nor reorder within a run) and moves the
 * checkpoint only after Kafka has acknowledged the whole batch. A crash between the
 * acknowledgement and the checkpoint publishes that batch again on the next start:
 * consumers deduplicate by ce_id. A failed send is retried from the same position with
 * back-off, one event at a time, so a refusal names the very event; nothing is skipped on
 * its own. After `health.reportAfterRetries` failures in a row the relay is stalled: it logs
 * the event (id, position, type) and the broker's error once, /readyz says not ready, and it
 * goes on retrying. An operator who cannot fix the cause skips the event
 * (POST /admin/v1/relay/skip-event parks it in parked_events under the relay's checkpoint
 * name); the next retry passes over it.
 *
 * Start never waits for Kafka: the relay connects in the background and retries, so the
 * service runs while the brokers are down and the relay catches up when they return.
 */
export class KafkaRelay {
  private producer: Producer;
  private readonly watch = new PositionWatch();
  private readonly pause = new Pause();
  private readonly source: string;
  private readonly batchSize: number;
  private readonly checkpoint: string;
  private subscription: Subscription | undefined;
  private starting: Promise<void> | undefined;
  private running = false;
  readonly health: RelayHealth;

  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly kafka: Kafka,
    private readonly options: KafkaRelayOptions,
  ) {
    this.producer = this.createProducer();
    this.source = options.source ?? DEFAULT_CE_SOURCE;
    this.batchSize = options.batchSize ?? 500;
    this.checkpoint = options.checkpoint ?? RELAY_CHECKPOINT;
    this.health = options.health ?? new RelayHealth();
  }

  /** The last log position Kafka has acknowledged (as stored in the checkpoint). */
  get position(): bigint {
    return this.watch.position;
  }

  /** Resolves true once every event up to `position` is acknowledged by Kafka. */
  waitForPosition(position: bigint, timeoutMs = 30_000): Promise<boolean> {
    return this.watch.waitFor(position, timeoutMs);
  }

  /** Starts in the background; `started` resolves once the relay follows the log. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.starting = this.connectAndFollow();
  }

  /** Resolves when the relay is connected and following the log (or stopped). */
  get started(): Promise<void> {
    return this.starting ?? Promise.resolve();
  }

  /** Finishes the batch in flight (its checkpoint included), then disconnects. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.pause.interrupt();
    // A connection still being attempted is not waited for: connectAndFollow lets it go.
    await this.subscription?.stop();
    this.subscription = undefined;
    await this.producer.disconnect().catch(() => undefined);
    this.watch.release();
  }

  private async connectAndFollow(): Promise<void> {
    for (let attempt = 1; this.running; attempt++) {
      try {
        await this.producer.connect();
        await this.ensureTopic();
        const position = await this.readCheckpoint();
        if (!this.running) {
          await this.producer.disconnect().catch(() => undefined);
          return;
        }
        this.watch.advance(position);
        this.subscription = this.store.subscribeToAll(position, {
          onEvents: (events) => this.publish(events),
          onError: (error) => this.options.logger?.error({ err: error }, 'relay batch failed; retrying'),
        });
        this.options.logger?.info({ topic: this.options.topic, position: String(position) }, 'relay started');
        return;
      } catch (error) {
        const wait = backoffMs(attempt);
        this.options.logger?.error({ err: error, retryInMs: wait }, 'relay cannot reach Kafka; retrying');
        await this.pause.sleep(wait);
      }
    }
  }

  private async publish(offered: RecordedEvent[]): Promise<void> {
    // After a failure the subscription offers the whole batch again: skip what is acknowledged.
    const events = offered.filter((event) => event.position > this.watch.position);
    for (let start = 0; start < events.length && this.running;) {
      // While failing, one event at a time: a refusal then names the event it is about.
      const batch = events.slice(start, start + (this.health.retries > 0 ? 1 : this.batchSize));
      const last = batch[batch.length - 1]!;
      try {
        const skipped = this.health.retries > 0 ? await this.skippedByOperator(batch) : new Set();
        const messages = batch.filter((event) => !skipped.has(event.id));
        if (messages.length > 0) {
          await this.producer.send({
            topic: this.options.topic,
            acks: -1,
            // Without the unkeyed email digests of old events (./outward-event.ts).
            messages: messages.map((event) => toKafkaMessage(outwardEvent(event), this.source)),
          });
        }
        await (this.options.checkpointSession ?? this.pool).query(
          `insert into checkpoints (name, position, updated_at) values ($1, $2, now())
           on conflict (name) do update
           set position = greatest(checkpoints.position, excluded.position), updated_at = now()`,
          [this.checkpoint, String(last.position)],
        );
        this.health.succeeded();
        this.health.outcomes.published += messages.length;
        this.health.outcomes.skipped += batch.length - messages.length;
      } catch (error) {
        this.health.outcomes.failed += batch.length;
        // The subscription offers the same events again after a pause: the back-off adds to it.
        const event = batch.length === 1 ? batch[0]! : undefined;
        if (
          this.health.failed(error, event && { id: event.id, position: event.position, type: event.type })
        ) {
          this.options.logger?.error(
            {
              eventId: event?.id,
              position: event && String(event.position),
              eventType: event?.type,
              retries: this.health.retries,
              error: this.health.lastError,
            },
            'relay is stalled: Kafka refuses to take an event; fix the cause (topic settings, ACLs, brokers) ' +
              'or skip the event with POST /admin/v1/relay/skip-event',
          );
        }
        if (isProducerStateError(error)) await this.resetProducer(error);
        await this.pause.sleep(backoffMs(this.health.retries, this.options.retryMaxMs ?? 10_000));
        throw error;
      }
      this.watch.advance(last.position);
      start += batch.length;
    }
  }

  /** Events of `batch` an operator has skipped (parked under the relay's checkpoint name). */
  private async skippedByOperator(batch: RecordedEvent[]): Promise<Set<string>> {
    const result = await this.pool.query<{ event_id: string }>(
      'select event_id from parked_events where projection = $1 and event_id = any($2::uuid[])',
      [this.checkpoint, batch.map((event) => event.id)],
    );
    for (const row of result.rows) {
      this.options.logger?.warn(
        { eventId: row.event_id, checkpoint: this.checkpoint },
        'relay passes over an event an operator skipped; it is not on the topic',
      );
    }
    return new Set(result.rows.map((row) => row.event_id));
  }

  /**
   * The broker lost track of this producer's sequence numbers (or fenced it): reconnecting
   * gets a new producer id with fresh sequences (KIP-360). The batch is then sent again;
   * whatever part of it had been written is delivered twice, which at least once allows.
   */
  private async resetProducer(cause: unknown): Promise<void> {
    this.options.logger?.warn({ err: cause }, 'relay replaces its idempotent producer');
    await this.producer.disconnect().catch(() => undefined);
    // kafkajs keeps a producer's id across reconnects: only a new producer asks for a new one.
    this.producer = this.createProducer();
    await this.producer.connect().catch(() => undefined);
  }

  /** Idempotent: acks from all in-sync replicas, one request in flight, retries without duplicates. */
  private createProducer(): Producer {
    return this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  private async readCheckpoint(): Promise<bigint> {
    await this.pool.query('insert into checkpoints (name) values ($1) on conflict do nothing', [
      this.checkpoint,
    ]);
    const result = await this.pool.query<{ position: string }>(
      'select position from checkpoints where name = $1',
      [this.checkpoint],
    );
    return BigInt(result.rows[0]?.position ?? 0);
  }

  /** Creates the topic when it does not exist (a broker may refuse: then it must exist). */
  private async ensureTopic(): Promise<void> {
    const admin: Admin = this.kafka.admin();
    try {
      await admin.connect();
      const topics = await admin.listTopics();
      if (topics.includes(this.options.topic)) return;
      await admin.createTopics({
        waitForLeaders: true,
        topics: [{ topic: this.options.topic, numPartitions: this.options.partitions ?? 6 }],
      });
    } catch (error) {
      this.options.logger?.warn(
        { err: error, topic: this.options.topic },
        'could not check or create the topic',
      );
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}

const PRODUCER_STATE_ERRORS = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
]);

/** A produce error that only a new producer id cures (kafkajs may wrap it in a retry error). */
function isProducerStateError(error: unknown): boolean {
  let current = error as { type?: unknown; cause?: unknown; originalError?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current.type === 'string' && PRODUCER_STATE_ERRORS.has(current.type)) return true;
    current = (current.originalError ?? current.cause) as typeof current;
  }
  return false;
}
