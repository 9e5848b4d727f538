import { BENCH_PERSONAL_DATA_KEK } from './bench-kek.ts';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { startService, type RunningService } from '../../services/app/runtime.ts';
import { loadSettings } from '../../shared/config/settings.ts';
import { createLogger } from '../../shared/logging/logger.ts';
import { WORK_DIR, type BenchServer } from './server.ts';

/**
 * The service under load for one bench part: its own migrated database on the bench's
 * PostgreSQL, an ephemeral port, a fresh operator token, rate limits off (the load would
 * otherwise measure the limiter) and no logs.
 */
export async function startBenchService(
  server: BenchServer,
  name: string,
): Promise<{ service: RunningService; adminToken: string }> {
  const url = await server.createDatabase(`bench_${name}`, { migrated: true });
  const adminToken = randomBytes(24).toString('hex');
  const settings = loadSettings({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: url,
    PERSONAL_DATA_KEK: BENCH_PERSONAL_DATA_KEK,
    ADMIN_TOKEN: adminToken,
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'silent',
    DATA_DIR: path.join(WORK_DIR, `${name}-data`),
  });
  return { service: await startService(settings, createLogger('silent')), adminToken };
}
