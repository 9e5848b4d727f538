import { randomUUID } from 'node:crypto';
import {
  GenericContainer,
  RandomPortGenerator,
  Wait,
  getContainerRuntimeClient,
  type StartedTestContainer,
} from 'testcontainers';
import { EventStoreDBEventStore } from '../../shared/event-store/eventstoredb-event-store.ts';

const IMAGES = {
  eventStore: process.env.TEST_EVENTSTORE_IMAGE ?? 'eventstore/eventstore:24.10',
  // kafkajs 2.2.4 speaks to Kafka 4.x too for what the service uses (npm test runs 4.3.1,
  // infra/kafka/pom.xml); this image stays on 3.9 until it is checked where Docker runs.
  kafka: process.env.TEST_KAFKA_IMAGE ?? 'apache/kafka:3.9.0',
  postgres: process.env.TEST_POSTGRES_IMAGE ?? 'postgres:16',
};

/** Why containers cannot run here, or undefined when a Docker engine answers. */
export async function dockerUnavailable(timeoutMs = 10_000): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    // The same detection testcontainers itself uses: DOCKER_HOST, ~/.testcontainers.properties, sockets.
    await Promise.race([getContainerRuntimeClient(), timeout]);
    return undefined;
  } catch (error) {
    return `no Docker engine reachable (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    clearTimeout(timer);
  }
}

export async function startEventStoreDB(): Promise<{ container: StartedTestContainer; url: string }> {
  const container = await new GenericContainer(IMAGES.eventStore)
    .withEnvironment({
      EVENTSTORE_INSECURE: 'true',
      EVENTSTORE_CLUSTER_SIZE: '1',
      EVENTSTORE_MEM_DB: 'true',
      EVENTSTORE_RUN_PROJECTIONS: 'None',
    })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCodeMatching((code) => code < 300))
    .withStartupTimeout(120_000)
    .start();
  const url = `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
  await untilWritable(url);
  return { container, url };
}

/** The node answers /health/live before it has become leader and takes writes. */
async function untilWritable(url: string): Promise<void> {
  const store = EventStoreDBEventStore.connect(url);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await store.append(
          `readiness-${randomUUID()}`,
          [{ type: 'readiness_checked', data: {} }],
          'no_stream',
        );
        return;
      } catch (error) {
        if (attempt >= 60) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  } finally {
    await store.close();
  }
}

export async function startKafka(): Promise<{ container: StartedTestContainer; brokers: string }> {
  // Clients connect to the address the broker advertises, so it must be the mapped host port:
  // pick that port before starting instead of letting Docker choose.
  const host = (await getContainerRuntimeClient()).info.containerRuntime.host;
  const port = await new RandomPortGenerator().generatePort();
  const container = await new GenericContainer(IMAGES.kafka)
    .withEnvironment({
      // Any 16 bytes in URL-safe base64; this one is from the image's own examples.
      CLUSTER_ID: '4L6g3nShT-eMCtK--X86sw',
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'EXTERNAL://:9092,BROKER://:19092,CONTROLLER://:29093',
      KAFKA_ADVERTISED_LISTENERS: `EXTERNAL://${host}:${port},BROKER://localhost:19092`,
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'EXTERNAL:PLAINTEXT,BROKER:PLAINTEXT,CONTROLLER:PLAINTEXT',
      KAFKA_INTER_BROKER_LISTENER_NAME: 'BROKER',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:29093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_LOG_DIRS: '/tmp/kraft-combined-logs',
    })
    .withExposedPorts({ container: 9092, host: port })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .withStartupTimeout(120_000)
    .start();
  return { container, brokers: `${host}:${port}` };
}

export async function startPostgres(): Promise<{ container: StartedTestContainer; url: string }> {
  const container = await new GenericContainer(IMAGES.postgres)
    .withEnvironment({
      POSTGRES_USER: 'onboarding',
      POSTGRES_PASSWORD: 'onboarding',
      POSTGRES_DB: 'onboarding',
    })
    .withExposedPorts(5432)
    .withTmpFs({ '/var/lib/postgresql/data': 'rw' })
    // The image restarts the server once after initdb: the second message is the real one.
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .withStartupTimeout(120_000)
    .start();
  const url = `postgres://onboarding:onboarding@${container.getHost()}:${container.getMappedPort(5432)}/onboarding`;
  return { container, url };
}
