import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { ServiceContext } from './context.ts';
import { collectOnce } from '../../shared/metrics/collect-once.ts';
import { readCheckpointLags } from '../../shared/metrics/checkpoint-lag.ts';
import { measureAppends } from '../../shared/metrics/event-store-metrics.ts';
import { readKafkaConsumerLags } from '../../shared/metrics/kafka-consumer-lag.ts';
import { createKafka, kafkaStreamSettings } from '../../shared/subscriptions/kafka.ts';
import { registerRelayMetrics } from '../events/index.ts';
import type { RelayHealth } from '../events/index.ts';
import { readDeliveryOutcomes, readQueueBacklogs } from './work-queue-metrics.ts';

/** How long one metrics read may take in the database before it yields no samples. */
export const METRICS_QUERY_TIMEOUT_MS = 2000;

type MetricsDeps = Pick<
  ServiceContext,
  'settings' | 'pool' | 'clock' | 'logger' | 'eventStore' | 'projections' | 'consumers'
> & { relayHealth: RelayHealth };

/**
 * The service's metrics registry (one per instance, so several in one test process do not
 * mix): process metrics, event store appends (timed as they happen), and gauges read from
 * the database when /metrics is scraped, one read per family. HTTP metrics are added by
 * the app (shared/metrics/http-metrics.ts). With KAFKA_BROKERS set, also the relay's publish
 * outcomes and stall, and each Kafka consumer group's lag (read from the brokers at scrape).
 */
export function createMetrics(context: MetricsDeps): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  measureAppends(context.eventStore, registry);

  // Checkpoint lag is measured against the PostgreSQL log; EventStoreDB positions are not comparable.
  if (context.eventStore.kind === 'postgres') {
    const lags = collectOnce(
      'checkpoint_lag',
      () => readCheckpointLags(context.pool, context.projections.projectionNames, METRICS_QUERY_TIMEOUT_MS),
      [],
      context.logger,
    );
    const labelNames = ['checkpoint', 'kind'] as const;
    new Gauge({
      name: 'onboarding_checkpoint_lag_events',
      help: 'Events of the log not yet handled, per projection, log consumer and relay (kind); capped at 100000',
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        for (const lag of await lags())
          this.set({ checkpoint: lag.checkpoint, kind: lag.kind }, lag.behindEvents);
      },
    });
    new Gauge({
      name: 'onboarding_checkpoint_lag_seconds',
      help: 'Age of the oldest event not yet handled, per projection, log consumer and relay (kind); 0 when caught up',
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        for (const lag of await lags())
          this.set({ checkpoint: lag.checkpoint, kind: lag.kind }, lag.lagSeconds);
      },
    });
  }

  const backlogs = collectOnce(
    'queue',
    () => readQueueBacklogs(context.pool, context.clock, METRICS_QUERY_TIMEOUT_MS),
    [],
    context.logger,
  );
  new Gauge({
    name: 'onboarding_queue_depth',
    help: 'Rows waiting in each work queue (hooks, webhooks, automation, mail, due timers)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const backlog of await backlogs()) this.set({ queue: backlog.queue }, backlog.depth);
    },
  });
  new Gauge({
    name: 'onboarding_queue_oldest_age_seconds',
    help: 'Seconds since the oldest waiting row of each work queue was queued (timers: fell due); 0 when empty',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const backlog of await backlogs()) this.set({ queue: backlog.queue }, backlog.oldestAgeSeconds);
    },
  });

  const outcomes = collectOnce(
    'deliveries',
    () => readDeliveryOutcomes(context.pool, METRICS_QUERY_TIMEOUT_MS),
    [],
    context.logger,
  );
  new Gauge({
    name: 'onboarding_deliveries',
    help: 'Finished deliveries kept, per queue and outcome (delivered, sent, succeeded, skipped, failed)',
    labelNames: ['queue', 'outcome'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const outcome of await outcomes())
        this.set({ queue: outcome.queue, outcome: outcome.outcome }, outcome.count);
    },
  });

  registerRelayMetrics(registry, context.relayHealth);
  if (context.settings.KAFKA_BROKERS.length > 0) registerKafkaConsumerLag(registry, context);
  return registry;
}

/** `onboarding_kafka_consumer_lag_events`: messages after each consumer group's offsets. */
function registerKafkaConsumerLag(registry: Registry, context: MetricsDeps): void {
  const { topic, groupPrefix } = kafkaStreamSettings(context.settings.KAFKA_BROKERS);
  const kafka = createKafka(context.settings.KAFKA_BROKERS, 'client-onboarding-metrics');
  const lags = collectOnce(
    'kafka_consumer_lag',
    () =>
      readKafkaConsumerLags(context.pool, kafka, topic, context.consumers.names, METRICS_QUERY_TIMEOUT_MS),
    [],
    context.logger,
  );
  new Gauge({
    name: 'onboarding_kafka_consumer_lag_events',
    help: 'Messages on the event topic after the offsets each Kafka consumer group has handled (all its instances)',
    labelNames: ['group', 'consumer'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const lag of await lags())
        this.set({ group: `${groupPrefix}${lag.consumer}`, consumer: lag.consumer }, lag.behindMessages);
    },
  });
}
