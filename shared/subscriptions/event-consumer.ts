import type { PoolClient } from '../db/pool.ts';
import type { RecordedEvent } from '../event-store/event-store.ts';

/**
 * The subscription port: a consumer of the event stream (hook deliveries, automation
 * rules) is written once against this interface and runs unchanged on
 * either adapter:
 *
 * - the event log directly, from its own checkpoint `consumer:<name>` (no Kafka);
 * - a Kafka consumer group (group id = `name`) on the relay's topic, when KAFKA_BROKERS
 *   is set.
 *
 * Delivery is at least once on both; the adapters make handling once per event id: each
 * event is handed to `handle` inside a transaction that also inserts the row
 * (consumer, event id) into `processed_events`, so the consumer's writes and the dedupe
 * row commit together, and a duplicate delivery is skipped before `handle` is called.
 */
export interface EventConsumer {
  /**
   * Stable name, lowercase with dashes (`hook-deliveries`). It is the checkpoint name
   * (`consumer:<name>`), the Kafka group id and the dedupe scope: renaming a consumer
   * makes it start over.
   */
  readonly name: string;
  /**
   * Event types this consumer wants; others are passed over without a transaction.
   * Omit to receive every event.
   */
  readonly eventTypes?: readonly string[];
  /**
   * Handles one event inside an open transaction `tx` (a pg client after BEGIN). Write
   * every effect through `tx`: it commits with the dedupe row (and the checkpoint on the
   * log adapter), or not at all. Keep it short and local: enqueue outbound work (HTTP,
   * mail) in your own tables and do it in your own worker, since a throw here rolls back
   * and the same event is offered again after a pause, blocking the events behind it
   * (order is kept per consumer on the log, per partition on Kafka).
   */
  handle(event: RecordedEvent, tx: PoolClient): Promise<void>;
}

/** A started consumer, whichever adapter runs it. */
export interface RunningConsumer {
  readonly name: string;
  readonly adapter: 'log' | 'kafka';
  /**
   * Resolves true once every event of the log up to `position` has been handled (or
   * passed over) by this consumer, false after `timeoutMs`.
   */
  caughtUp(position: bigint, timeoutMs?: number): Promise<boolean>;
  /** Stops after the event in hand; what is committed stays committed. */
  stop(): Promise<void>;
}

export const consumerCheckpoint = (name: string) => `consumer:${name}`;

const NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/;

export function assertConsumerName(name: string): void {
  if (!NAME.test(name)) {
    throw new Error(`Consumer name ${JSON.stringify(name)}: expected lowercase letters, digits, . _ -`);
  }
}

export function wants(consumer: EventConsumer, type: string): boolean {
  return !consumer.eventTypes || consumer.eventTypes.includes(type);
}
