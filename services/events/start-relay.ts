import { createKafka, kafkaStreamSettings } from '../../shared/subscriptions/kafka.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { KafkaRelay } from './kafka-relay.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import { runAsSingleOwner, type SingleOwner } from '../../shared/db/single-owner.ts';

/** Advisory lock key of the relay's ownership ("relay" in ASCII). */
export const RELAY_OWNER_LOCK = 0x72656c6179;
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
  checkpointSession?: PoolClient,
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
      checkpointSession,
    },
  );
  relay.start();
  return relay;
}

/**
 * The relay of a running service, run by one instance at a time (shared/db/single-owner.ts):
 * two relays would publish every event twice and move one checkpoint from two places. The
 * owner writes the relay's checkpoint through the session that holds the lock; an instance
 * that does not own it asks again every few seconds and takes over when the owner dies.
 * Undefined when KAFKA_BROKERS is unset.
 */
export function startOwnedKafkaRelay(
  context: KafkaRelayDeps,
  env: NodeJS.ProcessEnv = process.env,
): SingleOwner | undefined {
  if (context.settings.KAFKA_BROKERS.length === 0) return undefined;
  let relay: KafkaRelay | undefined;
  return runAsSingleOwner(context.pool, RELAY_OWNER_LOCK, {
    start(session) {
      context.logger.info('this instance owns the Kafka relay');
      relay = startKafkaRelay(context, env, session);
    },
    async stop() {
      await relay?.stop();
      relay = undefined;
    },
  });
}
