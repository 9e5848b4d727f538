/**
 * A child process for the Kafka fault tests (test/helpers/kafka-worker.ts starts it, and
 * kills it with SIGKILL): `relay` runs the Kafka relay alone, `consumers` runs the
 * service's event consumers (hook deliveries, automation rules) as Kafka group members.
 * Settings come from the environment (DATABASE_URL, KAFKA_BROKERS, KAFKA_TOPIC,
 * KAFKA_GROUP_PREFIX, KAFKA_SESSION_TIMEOUT_MS and the other settings; RELAY_BATCH_SIZE for the relay). It prints
 * `started` once running.
 */
import { TEST_PERSONAL_DATA_KEK } from './service.ts';
import { KafkaRelay } from '../../services/events/kafka-relay.ts';
import { createContext } from '../../services/app/runtime.ts';
import { loadSettings } from '../../shared/config/settings.ts';
import { createPool } from '../../shared/db/pool.ts';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';
import { createLogger } from '../../shared/logging/logger.ts';
import { createKafka, kafkaStreamSettings } from '../../shared/subscriptions/kafka.ts';

const mode = process.argv[2];
const databaseUrl = process.env.DATABASE_URL!;
const pool = createPool(databaseUrl, 5);
const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');

if (mode === 'relay') {
  const settings = loadSettings({ KAFKA_BROKERS: process.env.KAFKA_BROKERS, DATABASE_URL: databaseUrl });
  const stream = kafkaStreamSettings(settings.KAFKA_BROKERS);
  const relay = new KafkaRelay(
    pool,
    new PostgresEventStore(pool, databaseUrl),
    createKafka(stream.brokers, 'test-relay-process', logger),
    { topic: stream.topic, batchSize: Number(process.env.RELAY_BATCH_SIZE ?? 500), logger },
  );
  relay.start();
  await relay.started;
} else if (mode === 'consumers') {
  const settings = loadSettings({
    PERSONAL_DATA_KEK: TEST_PERSONAL_DATA_KEK,
    ...process.env,
    LOG_LEVEL: 'silent',
  });
  // createContext starts the outbound consumers on Kafka (the default role runs them);
  // nothing else runs here. The projections run in the test's process: a consumer's
  // read-your-writes wait here follows their checkpoints in the shared database, as on any
  // instance whose runner is not started (shared/projections/shared-checkpoint-wait.ts).
  await createContext(settings, logger, pool, databaseUrl);
} else {
  throw new Error(`unknown mode ${mode}`);
}
process.stdout.write('started\n');
