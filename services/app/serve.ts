/** The service process, loaded by ./main.ts once tracing is set up. */
import { tracing } from '../../shared/telemetry/tracing-preload.ts';
import { loadSettings, SettingsError } from '../../shared/config/settings.ts';
import { createLogger } from '../../shared/logging/logger.ts';
import { startService, type RunningService } from './runtime.ts';
import { startupFailureLine } from './startup-failure.ts';

let settings;
try {
  settings = loadSettings();
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const logger = createLogger(settings.LOG_LEVEL);

/** The exit code when the embedded database is gone for good (EX_UNAVAILABLE). */
const DATABASE_GONE_EXIT_CODE = 69;

/**
 * A start that fails prints one line saying what to do (./startup-failure.ts) and exits 1,
 * without a stack trace; the error itself is logged at debug level. An error thrown outside
 * the start's promise chain (a child process that cannot be spawned) is treated alike.
 */
function refuseToStart(error: unknown): never {
  logger.debug({ err: error }, 'start failed');
  console.error(startupFailureLine(error, settings!));
  process.exit(1);
}

process.on('uncaughtException', refuseToStart);
let service: RunningService;
try {
  service = await startService(settings, logger, {
    // The embedded database could not be started again (shared/db/embedded-supervisor.ts):
    // exit non-zero so that whatever supervises the process starts it again. The short wait
    // lets the log line out.
    onDatabaseGone: () => setTimeout(() => process.exit(DATABASE_GONE_EXIT_CODE), 200),
  });
} catch (error) {
  refuseToStart(error);
}
process.off('uncaughtException', refuseToStart);
logger.info({ url: service.url, node: process.version }, 'client onboarding service started');

/**
 * A stop signal gets an orderly stop (services/app/runtime.ts, bounded by STOP_BUDGET_MS), and
 * the process exits within STOP_DEADLINE_MS whatever happens: should a step hang after all,
 * the exit still stops the embedded database (its exit hook and its watchdog).
 */
const STOP_DEADLINE_MS = 9000;

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    setTimeout(() => {
      logger.error({ deadlineMs: STOP_DEADLINE_MS }, 'stop did not finish in time; exiting');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    service
      .stop()
      .then(() => tracing?.shutdown()) // sends the spans still buffered
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'unclean stop');
          process.exit(1);
        },
      );
  });
}
