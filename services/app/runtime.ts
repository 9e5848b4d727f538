import { createStripeClient } from '../../shared/stripe/stripe-client.ts';
import type { FastifyInstance } from 'fastify';
import { ManualClock, systemClock } from '../../shared/clock.ts';
import type { Settings } from '../../shared/config/settings.ts';
import { runsWorker } from '../../shared/config/service-role.ts';
import { DatabaseHealth, probeDatabase } from '../../shared/db/database-health.ts';
import { superviseEmbeddedPostgres } from '../../shared/db/embedded-supervisor.ts';
import { migrate } from '../../shared/db/migrate.ts';
import { createPool, type ConnectionErrorListener, type Pool } from '../../shared/db/pool.ts';
import { createEventStore } from '../../shared/event-store/create-event-store.ts';
import { createLogger, type Logger } from '../../shared/logging/logger.ts';
import { createRateLimitStores } from '../../shared/rate-limit/redis-store.ts';
import { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import type { KeyRing } from '../../shared/privacy/key-encryption-key.ts';
import { KekRequiredError, resolveKeyRing } from '../../shared/privacy/kek-source.ts';
import { installProcessKeyRing } from '../../shared/privacy/process-key-ring.ts';
import { rewrapDataKeys } from '../../shared/privacy/rewrap-data-keys.ts';
import { EventConsumers } from '../../shared/subscriptions/consumers.ts';
import { allProjections, inlineProjections } from './projections.ts';
import { ProjectionRunner } from '../../shared/projections/runner.ts';
import { createMetrics } from './operational-metrics.ts';
import { buildApp } from './http-app.ts';
import { RelayHealth, startOwnedKafkaRelay } from '../events/index.ts';
import { duePasses, startConsumers } from './workers.ts';
import { startScheduler } from '../../shared/work-queue/scheduler-loop.ts';
import type { ServiceContext } from './context.ts';
import { settleWithin } from '../../shared/work-queue/settle-within.ts';

/**
 * Connections of the query side's pg pool (every read of a read model outside a command:
 * the public API's key lookup, onboarding by id and list, the workspace's and the portal's
 * reads): as many as the command pool, since every public request reads here.
 */
const READ_POOL_SIZE = 20;

/**
 * The shared parts over an open, migrated database. `keyRing`: the KEKs (PERSONAL_DATA_KEK,
 * else as startService resolves them); data keys still stored plain are sealed with it first.
 */
export async function createContext(
  settings: Settings,
  logger: Logger,
  pool: Pool,
  databaseUrl: string,
  keyRing: KeyRing = requiredKeyRing(settings),
): Promise<ServiceContext> {
  installProcessKeyRing(keyRing);
  const wrapped = await rewrapDataKeys(pool, keyRing, { plainOnly: true });
  if (wrapped.rewrapped > 0) {
    logger.info(
      { keys: wrapped.rewrapped, kekId: keyRing.current.id },
      'sealed the plain personal-data keys with the key-encryption key',
    );
  }
  const eventStore = createEventStore(settings, pool, databaseUrl, inlineProjections);
  const vault = new PersonalDataVault(pool, { keyRing });
  vault.followErasures(databaseUrl, logger); // erasures on any instance drop the key here too
  const clock = settings.TEST_CLOCK ? new ManualClock() : systemClock;
  const projections = new ProjectionRunner(pool, eventStore, allProjections, logger);
  const consumers = new EventConsumers({ settings, pool, eventStore, logger, clock });
  const relayHealth = new RelayHealth();
  const context: ServiceContext = {
    settings,
    logger,
    clock,
    pool,
    readPool: createPool(databaseUrl, READ_POOL_SIZE, reportConnectionLoss(logger)),
    eventStore,
    projections,
    vault,
    consumers,
    rateLimitStores: await createRateLimitStores(settings.REDIS_URL, logger, pool),
    stripe: createStripeClient(settings),
    duePasses,
    metrics: createMetrics({
      settings,
      pool,
      clock,
      logger,
      eventStore,
      projections,
      consumers,
      relayHealth,
    }),
    relayHealth,
  };
  // Hook deliveries, automation rules, held invites (./workers.ts): a worker's part.
  if (runsWorker(settings)) await startConsumers(context);
  return context;
}

function requiredKeyRing(settings: Settings): KeyRing {
  if (!settings.PERSONAL_DATA_KEK) throw new KekRequiredError();
  return settings.PERSONAL_DATA_KEK;
}

/** Stops the background work (checkpoints are stored with every batch) and closes the pools. */
export async function stopContext(context: ServiceContext): Promise<void> {
  await context.consumers.stop();
  await context.projections.stop();
  await context.eventStore.close();
  await context.readPool.end();
  await context.rateLimitStores.close();
  await context.vault.close();
  await context.pool.end();
}

export interface RunningService {
  app: FastifyInstance;
  context: ServiceContext;
  url: string;
  stop(): Promise<void>;
}

/**
 * Bounds of an orderly stop, together well within the 10 seconds a SIGTERM is given
 * (services/app/main.ts). Whatever is cut short is safe: a request in flight fails on a closed
 * connection, a lease in flight runs out and its work is taken again at the next start,
 * checkpoints are stored with every batch.
 */
export const STOP_BUDGET_MS = {
  /** Requests in flight finish (the background passes are told to stop meanwhile). */
  requests: 3000,
  /** The relay hands its batch to Kafka. */
  relay: 1000,
  /** Consumers and projections finish the event in hand; the pools close. */
  background: 2000,
} as const;

export interface StartOptions {
  /**
   * The embedded database is gone and could not be started again
   * (shared/db/embedded-supervisor.ts): the service process exits non-zero (./serve.ts).
   */
  onDatabaseGone?: (reason: string) => void;
}

/**
 * Composes and starts the service: database (embedded when DATABASE_URL is unset),
 * migrations, event store, projections, HTTP. SERVICE_ROLE picks the parts
 * (shared/config/service-role.ts): `api` starts no projections, consumers, relay or
 * scheduler; `worker` serves only the health, metrics and operator routes. `stop` undoes it in reverse order:
 * stop accepting and finish requests in flight, store checkpoints, close pools, stop the
 * embedded database; every step within its share of STOP_BUDGET_MS.
 */
export async function startService(
  settings: Settings,
  logger: Logger = createLogger(settings.LOG_LEVEL),
  options: StartOptions = {},
): Promise<RunningService> {
  // Before the database: a missing KEK refuses the start at once.
  const keyRing = await resolveKeyRing(settings, logger);
  const database = settings.DATABASE_URL
    ? {
        url: settings.DATABASE_URL,
        health: new DatabaseHealth(),
        stopSupervising: undefined,
        stop: async () => undefined,
      }
    : await superviseEmbeddedPostgres(
        {
          dataDir: settings.DATA_DIR,
          persistent: true,
          onStalePostmasterStopped: (postmasterPid) =>
            logger.warn({ postmasterPid }, 'stopped PostgreSQL left running on DATA_DIR by an earlier run'),
          onClusterFolderChosen: (clusterFolder) =>
            logger.warn(
              { clusterFolder },
              'running as root: the postgres user cannot enter DATA_DIR, so the embedded database files are kept in clusterFolder',
            ),
        },
        {
          lost: (exit) =>
            logger.error(
              exit,
              'the embedded PostgreSQL exited; requests answer 503 while it is started again',
            ),
          restartFailed: (attempt, error) =>
            logger.error(
              { attempt, error: (error as Error).message },
              'the embedded PostgreSQL did not start again',
            ),
          restarted: (attempt, downMs) =>
            logger.warn({ attempt, downMs }, 'the embedded PostgreSQL runs again'),
          gaveUp: (reason) => {
            logger.fatal({ reason }, 'the embedded PostgreSQL cannot be started again');
            options.onDatabaseGone?.(reason);
          },
        },
      );
  // /healthz and /readyz (./health-routes.ts): the database answers, or since when it does not.
  const probe = probeDatabase(database.url, database.health);
  const pool = createPool(database.url, 20, reportConnectionLoss(logger));
  try {
    await migrate(pool);
    const context = await createContext(settings, logger, pool, database.url, keyRing);
    context.databaseHealth = database.health;
    // An API-only instance runs no projections: its commands wait on the shared checkpoints.
    const worker = runsWorker(settings);
    if (worker) await context.projections.start();
    const app = await buildApp(context);
    const url = await app.listen({ port: settings.PORT, host: settings.HOST });
    const relay = worker ? startOwnedKafkaRelay(context) : undefined; // one owner per database; only with KAFKA_BROKERS
    // Timers due by the service clock, hook and webhook deliveries, automation, mail; every few seconds.
    const scheduler = worker ? startScheduler(context) : undefined;
    return {
      app,
      context,
      url,
      async stop() {
        // A stop signal to the process group reaches PostgreSQL too: its exit is no crash.
        database.stopSupervising?.();
        await Promise.all([
          closeHttp(app, STOP_BUDGET_MS.requests),
          scheduler?.stop(STOP_BUDGET_MS.requests),
        ]);
        await settleWithin(relay?.stop(), STOP_BUDGET_MS.relay);
        if (!(await settleWithin(stopContext(context), STOP_BUDGET_MS.background))) {
          logger.warn('background work did not stop in time; the database stop ends its sessions');
        }
        await probe.stop();
        await database.stop();
      },
    };
  } catch (error) {
    await probe.stop();
    await pool.end().catch(() => undefined);
    await database.stop().catch(() => undefined);
    throw error;
  }
}

/** Stops accepting, lets requests in flight finish for `ms`, then closes what is left. */
async function closeHttp(app: FastifyInstance, ms: number): Promise<void> {
  const closing = app.close();
  if (await settleWithin(closing, ms)) return;
  app.log.warn('requests still in flight at stop; closing their connections');
  app.server.closeAllConnections();
  await settleWithin(closing, 500);
}

/** Logs a lost database connection, at most once a second (a restart breaks every connection at once). */
function reportConnectionLoss(logger: Logger): ConnectionErrorListener {
  let lastAt = 0;
  return (error) => {
    const now = Date.now();
    if (now - lastAt < 1000) return;
    lastAt = now;
    const { code } = error as { code?: unknown };
    logger.warn(
      { code, error: error.message },
      'database connection lost; new connections are made as needed',
    );
  };
}
