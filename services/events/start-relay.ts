import { createKafka, kafkaStreamSettings } from '../../shared/subscriptions/kafka.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { KafkaRelay } from './kafka-relay.ts';
import type { RelayHealth } from './relay-health.ts';

export type KafkaRelayDeps = Pick<Platform, 'settings' | 'logger' | 'pool' | 'eventStore'> & {
  /** Where the relay reports failures (/readyz reads it). */
  relayHealth?: RelayHealth;
};

/**
 * The relay of a running service: started when KAFKA_BROKERS is set (in the background;
 * see KafkaRelay), undefined otherwise. services/app/runtime.ts stops it before the pools close.
 */
export function startKafkaRelay(
  context: KafkaRelayDeps,
  env: NodeJS.ProcessEnv = process.env,
): KafkaRelay | undefined {
  const brokers = context.settings.KAFKA_BROKERS;
  if (brokers.length === 0) return undefined;
  const stream = kafkaStreamSettings(brokers, env);
  const logger = context.logger.child({ component: 'relay' });
  const relay = new KafkaRelay(
    context.pool,
    context.eventStore,
    createKafka(brokers, 'client-onboarding-relay', logger),
    {
      topic: stream.topic,
      source: stream.source,
      partitions: stream.partitions,
      logger,
      health: context.relayHealth,
    },
  );
  relay.start();
  return relay;
}
