import type { Clock } from '../clock.ts';
import type { Settings } from '../config/settings.ts';
import type { Pool } from '../db/pool.ts';
import type { EventStore } from '../event-store/event-store.ts';
import type { Logger } from '../logging/logger.ts';
import type { EventConsumer, RunningConsumer } from './event-consumer.ts';
import { createKafka, kafkaStreamSettings } from './kafka.ts';
import { startKafkaConsumer } from './kafka-consumer.ts';
import { startLogConsumer } from './log-consumer.ts';

export interface ConsumerDeps {
  settings: Pick<Settings, 'KAFKA_BROKERS'>;
  pool: Pool;
  eventStore: EventStore;
  logger?: Logger;
  /** The service clock (processed_events.processed_at). */
  clock?: Clock;
  /** Where KAFKA_TOPIC is read (process.env unless given). */
  env?: NodeJS.ProcessEnv;
}

/** Starts one consumer: a Kafka consumer group when KAFKA_BROKERS is set, else on the log. */
export function startConsumer(consumer: EventConsumer, deps: ConsumerDeps): Promise<RunningConsumer> {
  const brokers = deps.settings.KAFKA_BROKERS;
  if (brokers.length === 0) return startLogConsumer(consumer, deps);
  const { topic, groupPrefix, sessionTimeoutMs } = kafkaStreamSettings(brokers, deps.env);
  return startKafkaConsumer(consumer, {
    groupId: `${groupPrefix}${consumer.name}`,
    sessionTimeoutMs,
    pool: deps.pool,
    kafka: createKafka(brokers, `client-onboarding-${consumer.name}`, deps.logger),
    topic,
    logger: deps.logger,
    clock: deps.clock,
  });
}

export interface DrainResult {
  /** True when every consumer handled the log up to `position` in time. */
  drained: boolean;
  /** The log head when the drain began. */
  position: bigint;
  /** Consumers that had not caught up when the time ran out. */
  pending: string[];
}

/**
 * The service's consumers: started once, stopped together, and drained on demand
 * (`POST /admin/v1/work/drain` waits for `drain()`).
 */
export class EventConsumers {
  private readonly running = new Map<string, RunningConsumer>();

  constructor(private readonly deps: ConsumerDeps) {}

  /** The names of the consumers running here. */
  get names(): string[] {
    return [...this.running.keys()];
  }

  async start(consumer: EventConsumer): Promise<RunningConsumer> {
    if (this.running.has(consumer.name)) throw new Error(`Consumer ${consumer.name} is already running`);
    const started = await startConsumer(consumer, this.deps);
    this.running.set(consumer.name, started);
    return started;
  }

  /** Waits until every running consumer has handled the log up to `position`. */
  async caughtUp(position: bigint, timeoutMs = 30_000): Promise<DrainResult> {
    const consumers = [...this.running.values()];
    const reached = await Promise.all(consumers.map((consumer) => consumer.caughtUp(position, timeoutMs)));
    const pending = consumers.filter((_, index) => !reached[index]).map((consumer) => consumer.name);
    return { drained: pending.length === 0, position, pending };
  }

  /** Waits until every running consumer has handled every event committed before the call. */
  async drain(timeoutMs = 30_000): Promise<DrainResult> {
    return this.caughtUp(await this.deps.eventStore.committedHeadPosition(), timeoutMs);
  }

  async stop(): Promise<void> {
    const consumers = [...this.running.values()];
    this.running.clear();
    await Promise.all(consumers.map((consumer) => consumer.stop()));
  }
}
