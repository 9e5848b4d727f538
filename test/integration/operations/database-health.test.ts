import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../services/app/runtime.ts';
import { loadSettings } from '../../../shared/config/settings.ts';
import { PROBE_INTERVAL_MS } from '../../../shared/db/database-health.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../../shared/db/embedded-postgres.ts';
import { createLogger } from '../../../shared/logging/logger.ts';
import { freePort } from '../../../shared/net/free-port.ts';
import { ADMIN_TOKEN, TEST_PERSONAL_DATA_KEK } from '../../helpers/service.ts';

/**
 * With DATABASE_URL the service does not supervise the database, it reports: /readyz 503
 * while the database does not answer, and /healthz 503 once it has not answered for
 * DATABASE_LOST_UNHEALTHY_SECONDS, so an orchestrator restarts the process; both 200 again
 * once the database is back. It runs on a PostgreSQL of its own, stopped and started again.
 */

const UNHEALTHY_AFTER_SECONDS = 3;
let dataDir: string;
let port: number;
let database: EmbeddedDatabase;
let service: RunningService;

const startDatabase = async () => {
  database = await startEmbeddedPostgres({ dataDir, persistent: true, fast: true, port });
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'onboarding-database-health-'));
  port = await freePort();
  await startDatabase();
  const settings = loadSettings({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    PERSONAL_DATA_KEK: TEST_PERSONAL_DATA_KEK,
    ADMIN_TOKEN,
    TEST_CLOCK: 'on',
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'silent',
    DATABASE_LOST_UNHEALTHY_SECONDS: String(UNHEALTHY_AFTER_SECONDS),
  });
  service = await startService(settings, createLogger('silent'));
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await database?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

const status = async (pathname: string) =>
  (await fetch(`${service.url}${pathname}`, { signal: AbortSignal.timeout(5000) })).status;

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}

describe('DATABASE_URL: the service reports a lost database', () => {
  it('/readyz 503 at once, /healthz 503 after the grace, both 200 once it is back', async () => {
    expect([await status('/healthz'), await status('/readyz')]).toEqual([200, 200]);
    const stoppedAt = Date.now();
    await database.stop();
    expect(await status('/readyz')).toBe(503);
    // Alive during the grace: a short outage never gets the process restarted.
    expect(await status('/healthz')).toBe(200);
    await until(async () => (await status('/healthz')) === 503, (UNHEALTHY_AFTER_SECONDS + 10) * 1000);
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(UNHEALTHY_AFTER_SECONDS * 1000);
    const body = (await (await fetch(`${service.url}/healthz`)).json()) as { down_seconds: number };
    expect(body).toMatchObject({ status: 'unhealthy', database: 'unreachable' });
    expect(body.down_seconds).toBeGreaterThanOrEqual(UNHEALTHY_AFTER_SECONDS);

    await startDatabase();
    await until(async () => (await status('/healthz')) === 200, PROBE_INTERVAL_MS * 3);
    expect(await status('/readyz')).toBe(200);
  }, 60_000);
});
