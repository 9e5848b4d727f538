import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../shared/db/embedded-postgres.ts';
import { migrate } from '../../shared/db/migrate.ts';
import { createPool, withDatabase } from '../../shared/db/pool.ts';
import { startKafkaBroker } from './kafka-broker.ts';
import { startStripeMock } from './stripe-mock.ts';
import { resetRunLog, RUN_LOG_DIR, secretsInRunLog } from './run-log.ts';

export const TEMPLATE_DATABASE = 'onboarding_template';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** The test Kafka broker (`127.0.0.1:<port>`); each test uses topics and groups of its own. */
    kafkaBrokers: string;
    /** stripe-mock's HTTP address (test/helpers/stripe-mock.ts): STRIPE_API_URL of services under test. */
    stripeApiUrl: string;
  }
}

/**
 * One embedded PostgreSQL for the whole run. The migrated schema is kept as a template
 * database, so each test file gets a fresh copy with one CREATE DATABASE. One Apache Kafka
 * broker (test/helpers/kafka-broker.ts), started alongside PostgreSQL, and stripe-mock
 * (test/helpers/stripe-mock.ts). At the end the run's
 * service log is searched for every secret the tests registered (./run-log.ts).
 */
export default async function setup(project: TestProject) {
  resetRunLog();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'onboarding-test-'));
  const kafkaStarting = startKafkaBroker();
  // Waited for below in any case, so a failed PostgreSQL start leaves no broker behind.
  kafkaStarting.catch(() => undefined);
  const server = await startEmbeddedPostgres({ dataDir, persistent: false, fast: true }).catch(
    async (error: unknown) => {
      await (await kafkaStarting.catch(() => undefined))?.stop();
      throw error;
    },
  );
  const admin = createPool(server.url, 1);
  await admin.query(`create database ${TEMPLATE_DATABASE}`);
  await admin.end();
  const template = createPool(withDatabase(server.url, TEMPLATE_DATABASE), 1);
  await migrate(template);
  await template.end();
  project.provide('postgresUrl', server.url);
  const kafka = await kafkaStarting.catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  console.log(`Kafka broker ${kafka.version} (KRaft, one node) at ${kafka.brokers.join(',')}`);
  project.provide('kafkaBrokers', kafka.brokers.join(','));
  const stripeMock = await startStripeMock().catch(async (error: unknown) => {
    await Promise.all([server.stop(), kafka.stop()]);
    throw error;
  });
  project.provide('stripeApiUrl', stripeMock.url);
  return async () => {
    await Promise.all([server.stop(), kafka.stop(), stripeMock.stop()]);
    await rm(dataDir, { recursive: true, force: true });
    const found = secretsInRunLog();
    if (found.length > 0) {
      throw new Error(`secrets in the test run's service log (${RUN_LOG_DIR}):\n  ${found.join('\n  ')}`);
    }
  };
}
