import type { TestProject } from 'vitest/node';
import { migrate } from '../../shared/db/migrate.ts';
import { createPool } from '../../shared/db/pool.ts';
import { dockerUnavailable, startEventStoreDB, startKafka, startPostgres } from './containers.ts';
import type { ContainerContext } from './stack.ts';

/** Starts EventStoreDB, Kafka and PostgreSQL once for the run, or says why it cannot. */
export default async function setup(project: TestProject) {
  const reason = await dockerUnavailable();
  if (reason) {
    console.warn(`Container tests skipped: ${reason}`);
    project.provide('containers', { skipped: reason } satisfies ContainerContext);
    return;
  }
  const [eventStore, kafka, postgres] = await Promise.allSettled([
    startEventStoreDB(),
    startKafka(),
    startPostgres(),
  ]);
  const started = [eventStore, kafka, postgres].flatMap((result) =>
    result.status === 'fulfilled' ? [result.value.container] : [],
  );
  const stopAll = () => Promise.all(started.map((container) => container.stop())).then(() => undefined);
  if (eventStore.status === 'rejected' || kafka.status === 'rejected' || postgres.status === 'rejected') {
    await stopAll();
    const failed = [eventStore, kafka, postgres].find((result) => result.status === 'rejected');
    throw (failed as PromiseRejectedResult).reason;
  }
  const pool = createPool(postgres.value.url, 1);
  try {
    await migrate(pool);
  } catch (error) {
    await stopAll();
    throw error;
  } finally {
    await pool.end();
  }
  project.provide('containers', {
    stack: {
      eventStoreUrl: eventStore.value.url,
      kafkaBrokers: kafka.value.brokers,
      postgresUrl: postgres.value.url,
    },
  } satisfies ContainerContext);
  return stopAll;
}
