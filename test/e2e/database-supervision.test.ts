import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RESTART_POLICY } from '../../shared/db/embedded-supervisor.ts';
import { lockFilePid } from '../../shared/db/postmaster-process.ts';
import { startLoad, type LoadOutcome } from '../helpers/load-loop.ts';
import { ADMIN_TOKEN } from '../helpers/service.ts';
import { createTeamWithKey, type TeamWithKey } from '../helpers/tenant.ts';
import { alive, groups, killGroup, npmStart, waitUntil, type Started } from './npm-process.ts';

/**
 * The embedded PostgreSQL that `npm start` runs is supervised (shared/db/embedded-supervisor.ts):
 *
 * - its postmaster killed (SIGKILL) under a load of reads and writes: every answer meanwhile
 *   is 2xx or 503 retryable with Retry-After (never a 500, never a request left hanging),
 *   and the service serves again by itself, with a new postmaster on the same port;
 * - when it cannot be started again (its cluster made unusable), /healthz answers 503 once
 *   the database has been gone DATABASE_LOST_UNHEALTHY_SECONDS, and the process exits
 *   non-zero within RESTART_POLICY.giveUpAfterMs of the kill.
 */

const UNHEALTHY_AFTER_SECONDS = 5;
const settings = {
  ADMIN_TOKEN,
  RATE_LIMITS: 'off',
  LOG_LEVEL: 'warn',
  DATABASE_LOST_UNHEALTHY_SECONDS: String(UNHEALTHY_AFTER_SECONDS),
};
const dataDirs: string[] = [];

afterAll(async () => {
  for (const group of groups) killGroup(group);
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
});

async function startWithOwnDatabase(): Promise<{ started: Started; databaseDir: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'onboarding-e2e-supervised-'));
  dataDirs.push(dataDir);
  const started = await npmStart(dataDir, settings, 60);
  return { started, databaseDir: path.join(dataDir, 'postgres') };
}

async function postmasterOf(databaseDir: string): Promise<number> {
  const pid = await lockFilePid(databaseDir);
  expect(pid).toBeGreaterThan(0);
  return pid!;
}

function traffic(team: TeamWithKey) {
  const headers = { authorization: `Bearer ${team.apiKey}` };
  return (worker: number, turn: number) =>
    turn % 2 === 0
      ? {
          method: 'POST' as const,
          path: '/api/v1/clients',
          headers,
          body: { name: `Supervised ${worker}-${turn}`, email: `supervised-${randomUUID()}@example.com` },
        }
      : { method: 'GET' as const, path: '/api/v1/clients?limit=5', headers };
}

/** Polls `path` every 250 ms until stopped; keeps each status with its Retry-After. */
function poll(url: string, pathname: string, headers: Record<string, string> = {}) {
  const seen: { status: number; retryAfter: string | null; body: unknown; at: number }[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const answer = await fetch(`${url}${pathname}`, { headers, signal: AbortSignal.timeout(5000) }).then(
        async (response) => ({
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          body: await response.json().catch(() => undefined),
          at: Date.now(),
        }),
        () => ({ status: 0, retryAfter: null, body: undefined, at: Date.now() }),
      );
      seen.push(answer);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    seen,
    async stop() {
      stopped = true;
      await loop;
      return seen;
    },
  };
}

function expectOnly2xxOr503Retryable(outcomes: LoadOutcome[]) {
  const bad = outcomes.filter(
    (outcome) =>
      !(outcome.status >= 200 && outcome.status < 300) &&
      !(
        outcome.status === 503 &&
        outcome.retryable === true &&
        (outcome.code === 'service_unavailable' || outcome.code === 'read_models_lagging')
      ),
  );
  expect(bad.map((outcome) => `${outcome.status} ${JSON.stringify(outcome.body)}`)).toEqual([]);
}

describe('the embedded PostgreSQL is supervised', () => {
  it('its postmaster killed under load: 503 retryable meanwhile, never 500 or a hang; serves again by itself', async () => {
    const { started, databaseDir } = await startWithOwnDatabase();
    const team = await createTeamWithKey({ url: started.url });
    const killed = await postmasterOf(databaseDir);
    const load = startLoad(started.url, traffic(team), { workers: 6, requestTimeoutMs: 5000 });
    const api = poll(started.url, '/api/v1/clients?limit=1', { authorization: `Bearer ${team.apiKey}` });
    const ready = poll(started.url, '/readyz');
    try {
      await load.successes(20, 30_000);
      const killedAt = Date.now();
      process.kill(killed, 'SIGKILL');
      expect(await waitUntil(() => !alive(killed), 5000)).toBe(true);
      // Served again without anyone stepping in: 30 more 2xx answers.
      await load.successes(30, 45_000);
      const outcomes = await load.stop();
      const apiSeen = await api.stop();
      const readySeen = await ready.stop();

      const during = outcomes.filter((outcome) => outcome.at >= killedAt);
      expectOnly2xxOr503Retryable(during);
      expect(during.some((outcome) => outcome.status === 503)).toBe(true);
      expect(outcomes.filter((outcome) => outcome.status === 0)).toEqual([]); // no request hung 5 s
      const unavailable = apiSeen.filter((answer) => answer.status === 503);
      expect(unavailable.length).toBeGreaterThan(0);
      for (const answer of unavailable) {
        expect(answer.body).toMatchObject({ code: 'service_unavailable', retryable: true });
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      }
      expect(apiSeen.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true);
      expect(readySeen.some((answer) => answer.status === 503 && answer.at > killedAt)).toBe(true);

      // A new postmaster on the same data directory; the process still runs; ready again.
      const restarted = await postmasterOf(databaseDir);
      expect(restarted).not.toBe(killed);
      expect(alive(restarted)).toBe(true);
      expect(started.child.exitCode).toBeNull();
      expect((await fetch(`${started.url}/readyz`)).status).toBe(200);
      expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
      expect(started.output()).toContain('the embedded PostgreSQL runs again');
    } finally {
      await load.stop();
      await api.stop();
      await ready.stop();
      killGroup(started.child.pid!);
    }
  }, 120_000);

  it('when it cannot be started again: /healthz 503 after the grace, then the process exits non-zero in time', async () => {
    const { started, databaseDir } = await startWithOwnDatabase();
    const killed = await postmasterOf(databaseDir);
    // The cluster becomes unusable: PostgreSQL refuses files of another version.
    await writeFile(path.join(databaseDir, 'PG_VERSION'), '9\n');
    const health = poll(started.url, '/healthz');
    const killedAt = Date.now();
    process.kill(killed, 'SIGKILL');
    try {
      const exit = await Promise.race([
        started.exited,
        new Promise<'still running'>((resolve) =>
          setTimeout(() => resolve('still running'), RESTART_POLICY.giveUpAfterMs + 10_000),
        ),
      ]);
      const exitedAfterMs = Date.now() - killedAt;
      const seen = await health.stop();
      expect(exit, started.output()).not.toBe('still running');
      const { code, signal } = exit as { code: number | null; signal: NodeJS.Signals | null };
      expect(signal).toBeNull();
      expect(code).not.toBe(0);
      expect(exitedAfterMs).toBeLessThanOrEqual(RESTART_POLICY.giveUpAfterMs + 2000);

      // /healthz said alive during the grace, then 503 before the exit.
      const unhealthy = seen.filter((answer) => answer.status === 503);
      expect(unhealthy.length, JSON.stringify(seen.map((answer) => answer.status))).toBeGreaterThan(0);
      expect(unhealthy[0]!.at - killedAt).toBeGreaterThanOrEqual(UNHEALTHY_AFTER_SECONDS * 1000 - 500);
      expect(unhealthy[0]!.body).toMatchObject({ status: 'unhealthy', database: 'unreachable' });
      expect(seen.some((answer) => answer.status === 200 && answer.at > killedAt)).toBe(true);
      expect(started.output()).toContain('the embedded PostgreSQL cannot be started again');
    } finally {
      await health.stop();
      killGroup(started.child.pid!);
    }
  }, 120_000);
});
