import { loadSettings, SettingsError } from '../shared/config/settings.ts';
import { createLogger } from '../shared/logger.ts';
import { startService } from './runtime.ts';

let settings;
try {
  settings = loadSettings();
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const logger = createLogger(settings.LOG_LEVEL);
const service = await startService(settings, logger);
logger.info({ url: service.url }, 'client onboarding service started');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'unclean stop');
        process.exit(1);
      },
    );
  });
}
