import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../../shared/config/settings.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../../shared/db/embedded-postgres.ts';
import { createPool } from '../../../shared/db/pool.ts';
import { lockFilePid } from '../../../shared/db/postmaster-process.ts';
import { createLogger } from '../../../shared/logging/logger.ts';
import { freePort } from '../../../shared/net/free-port.ts';
import { startService, type RunningService } from '../../../services/app/runtime.ts';
import { startLoad, type LoadOutcome } from '../../helpers/load-loop.ts';
import { ADMIN_TOKEN, TEST_PERSONAL_DATA_KEK } from '../../helpers/service.ts';
import { apiRequest, createTeamWithKey, type TeamWithKey } from '../../helpers/tenant.ts';

/**
 * PostgreSQL lost under load: restarted, its backends terminated, its postmaster killed.
 * The service (the whole runtime: pools, LISTEN connection, projections, consumers,
 * scheduler) runs in this process, so an unheard pg 'error' event would end the test run.
 * During the outage every answer is 503 `service_unavailable` with retryable true (never
 * a 500), and once PostgreSQL is back the service serves again by itself.
 *
 * It runs on a PostgreSQL of its own (the shared one of the test run must not be killed).
 */

let dataDir: string;
let port: number;
let database: EmbeddedDatabase;
let service: RunningService;
let team: TeamWithKey;
let url: string;

const startDatabase = () =>
  startEmbeddedPostgres({ dataDir, persistent: true, fast: true, port }).then((started) => {
    database = started;
    return started;
  });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'onboarding-connection-loss-'));
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
  });
  service = await startService(settings, createLogger('silent'));
  url = service.url;
  team = await createTeamWithKey({ url });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await database?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** Half writes (a new client each), half reads of the client list. */
function clientTraffic(worker: number, turn: number) {
  const headers = { authorization: `Bearer ${team.apiKey}` };
  if (turn % 2 === 0) {
    return {
      method: 'POST' as const,
      path: '/api/v1/clients',
      headers,
      body: { name: `Load ${worker}-${turn}`, email: `load-${randomUUID()}@example.com` },
    };
  }
  return { method: 'GET' as const, path: '/api/v1/clients?limit=5', headers };
}

/** Runs the load, lets `outage` happen in the middle, and waits until the service serves again. */
async function underLoad(
  outage: () => Promise<void>,
): Promise<{ during: LoadOutcome[]; after: LoadOutcome[] }> {
  const load = startLoad(url, clientTraffic, { workers: 6 });
  try {
    await load.successes(20, 30_000);
    const outageStart = load.outcomes.length;
    await outage();
    const outageEnd = load.outcomes.length;
    await load.successes(30, 60_000);
    const outcomes = await load.stop();
    return { during: outcomes.slice(outageStart, outageEnd), after: outcomes.slice(outageEnd) };
  } finally {
    await load.stop();
  }
}

/**
 * 503 with retryable true only: `service_unavailable` (the database out of reach), or
 * `read_models_lagging` (a write committed just before the outage whose read models did
 * not catch up in time).
 */
function expectNoServerErrorsBut503(outcomes: LoadOutcome[]) {
  const failures = outcomes.filter((outcome) => outcome.status >= 500 || outcome.status === 0);
  for (const failure of failures) {
    expect(failure.status, JSON.stringify(failure.body)).toBe(503);
    expect(failure.body).toMatchObject({
      error: expect.any(String),
      code: expect.stringMatching(/^(service_unavailable|read_models_lagging)$/),
      retryable: true,
      request_id: expect.any(String),
    });
  }
  const otherErrors = outcomes.filter((outcome) => outcome.status >= 400 && outcome.status < 500);
  expect(otherErrors.map((outcome) => `${outcome.status} ${JSON.stringify(outcome.body)}`)).toEqual([]);
}

/** The LISTEN connection of the event store is there (again). */
async function listening(): Promise<boolean> {
  const admin = createPool(database.url, 1);
  try {
    const { rows } = await admin.query<{ count: number }>(
      `select count(*)::int as count from pg_stat_activity where query ilike 'listen event_store_appended'`,
    );
    return rows[0]!.count > 0;
  } finally {
    await admin.end();
  }
}

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function expectServingAgain() {
  const ready = await fetch(`${url}/readyz`);
  expect(ready.status).toBe(200);
  const created = await apiRequest({ url }, team.apiKey, 'POST', '/clients', {
    body: { name: 'After the outage', email: `after-${randomUUID()}@example.com` },
  });
  expect(created.status).toBe(201);
  const read = await apiRequest({ url }, team.apiKey, 'GET', `/clients/${created.body.client.id}`);
  expect(read.status).toBe(200);
  await eventually(listening, 'the event store listens for appends again');
  // The background work goes on: a drain settles.
  const drained = await fetch(`${url}/admin/v1/work/drain`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(drained.status).toBe(200);
}

describe('PostgreSQL lost under load', () => {
  it('PostgreSQL stopped and started again: 503 retryable meanwhile, never 500; serves again after', async () => {
    const { during, after } = await underLoad(async () => {
      await database.stop();
      // Down for a while: requests keep coming and must be answered.
      const down = startLoad(url, clientTraffic, { workers: 2, maxMs: 1500 });
      const whileDown = await new Promise<LoadOutcome[]>((resolve) =>
        setTimeout(() => resolve(down.stop()), 1500),
      );
      expect(whileDown.length).toBeGreaterThan(0);
      expect(whileDown.every((outcome) => outcome.status === 503)).toBe(true);
      expectNoServerErrorsBut503(whileDown);
      expect(whileDown.every((outcome) => outcome.code === 'service_unavailable')).toBe(true);
      await startDatabase();
    });
    expectNoServerErrorsBut503(during);
    expectNoServerErrorsBut503(after);
    expect(during.some((outcome) => outcome.status === 503)).toBe(true);
    await expectServingAgain();
  }, 120_000);

  it('every backend terminated (pg_terminate_backend), three times: never 500; serves again after', async () => {
    const { during, after } = await underLoad(async () => {
      const admin = createPool(database.url, 1);
      try {
        for (let round = 0; round < 3; round++) {
          await admin.query(
            `select pg_terminate_backend(pid) from pg_stat_activity
             where pid <> pg_backend_pid() and backend_type = 'client backend'`,
          );
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      } finally {
        await admin.end();
      }
    });
    expectNoServerErrorsBut503(during);
    expectNoServerErrorsBut503(after);
    await expectServingAgain();
  }, 120_000);

  it('the postmaster killed (SIGKILL), then started again: never 500; serves again after', async () => {
    const { during, after } = await underLoad(async () => {
      const pid = await lockFilePid(path.join(dataDir, 'postgres'));
      expect(pid).toBeGreaterThan(0);
      process.kill(pid!, 'SIGKILL');
      await database.stop(); // the server is gone already: this only lets go of it
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await startDatabase();
    });
    expectNoServerErrorsBut503(during);
    expectNoServerErrorsBut503(after);
    await expectServingAgain();
  }, 120_000);
});
