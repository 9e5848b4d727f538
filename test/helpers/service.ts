import type { FastifyInstance } from 'fastify';
import { ManualClock } from '../../shared/clock.ts';
import { loadSettings } from '../../shared/config/settings.ts';
import { createLogger, type Logger } from '../../shared/logging/logger.ts';
import { buildApp } from '../../services/app/http-app.ts';
import type { ServiceContext } from '../../services/app/context.ts';
import { createPool } from '../../shared/db/pool.ts';
import { createContext, stopContext } from '../../services/app/runtime.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { registerSecrets, runLogger } from './run-log.ts';

export const ADMIN_TOKEN = 'test-admin-token-of-the-operator-api';
/** The key-encryption key of every test service (PERSONAL_DATA_KEK), unless `env` gives another. */
export const TEST_PERSONAL_DATA_KEK = 'test:dGVzdC1vbmx5LWtlay0zMi1ieXRlcy1sb25nLi4uLi4=';

export interface TestService {
  url: string;
  app: FastifyInstance;
  context: ServiceContext;
  clock: ManualClock;
  database: TestDatabase;
  stop(): Promise<void>;
}

/**
 * The whole service over real HTTP on a free loopback port, with a fresh database, the
 * PostgreSQL event store and a manual clock (TEST_CLOCK=on). `env` overrides settings (PORT
 * too, so that PUBLIC_URL can name the port);
 * Without `logger` (tests of what is logged give their own) and LOG_LEVEL, it logs at info
 * level into the run log that the global teardown searches for secrets (./run-log.ts).
 * `sharedWith`: a second instance on the database of that one (it runs no projections, as an
 * API-only instance would; its stop leaves the database to the first).
 * `database`: a migrated database of the test's own (a dedicated server); its drop is the test's.
 */
export async function startTestService(
  env: Record<string, string> = {},
  {
    logger,
    sharedWith,
    database: own,
  }: { logger?: Logger; sharedWith?: TestService; database?: TestDatabase } = {},
): Promise<TestService> {
  const database = sharedWith
    ? { ...sharedWith.database, pool: createPool(sharedWith.database.url, 10), drop: async () => undefined }
    : (own ?? (await createTestDatabase()));
  const settings = loadSettings({
    PORT: '0',
    ADMIN_TOKEN,
    TEST_CLOCK: 'on',
    LOG_LEVEL: 'silent',
    PERSONAL_DATA_KEK: TEST_PERSONAL_DATA_KEK,
    ...env,
    DATABASE_URL: database.url,
  });
  registerSecrets(ADMIN_TOKEN, settings.PERSONAL_DATA_KEK!.current.key.toString('base64'));
  const context = await createContext(
    settings,
    logger ?? (env.LOG_LEVEL ? createLogger(settings.LOG_LEVEL) : runLogger()),
    database.pool,
    database.url,
  );
  if (!sharedWith) await context.projections.start();
  const app = await buildApp(context);
  const address = await app.listen({ port: settings.PORT, host: '127.0.0.1' });
  return {
    url: address,
    app,
    context,
    clock: context.clock as ManualClock,
    database,
    async stop() {
      await app.close();
      await stopContext(context);
      await database.drop();
    },
  };
}
