import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEmbeddedDatabaseUrl } from '../../shared/db/embedded-postgres.ts';
import { createPool } from '../../shared/db/pool.ts';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';
import {
  groups,
  killGroup,
  npm,
  npmStart as npmStartIn,
  processesUsing,
  START_WITHOUT_BUILD,
  userEnv,
  type Started,
} from './npm-process.ts';

/**
 * Starting and stopping, as a user runs it: `npm start` with no DATABASE_URL starts an
 * embedded PostgreSQL under DATA_DIR, answers GET /healthz within 30 seconds, exits 0 on
 * SIGTERM without leaving a postgres process behind, and keeps its data for the next
 * start; `npm run rebuild` works next to it; `PORT=abc npm start` refuses to start.
 */
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'onboarding-e2e-'));
});
afterAll(async () => {
  // Should there be anything left (a failed test), end it before removing its folder.
  for (const group of groups) killGroup(group);
  await new Promise((resolve) => setTimeout(resolve, 200));
  await rm(dataDir, { recursive: true, force: true });
});

/** The first start is `npm start` as a user types it (web build included); later ones skip the build. */
const npmStart = (withBuild = false) => npmStartIn(dataDir, {}, 30, { withBuild });

async function stopWithSigterm(started: Started) {
  expect(started.child.kill('SIGTERM')).toBe(true);
  const exit = await Promise.race([
    started.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no exit 20 s after SIGTERM:\n${started.output()}`)), 20_000),
    ),
  ]);
  // Nothing of it is left: no postgres on the data folder, nothing npm started.
  const group = started.child.pid!;
  let left = await processesUsing(dataDir, group);
  for (let attempt = 0; left.length > 0 && attempt < 20; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = await processesUsing(dataDir, group);
  }
  killGroup(group); // so that a failure here does not spill into the next test
  // npm runs the script through `sh -c`, which does not pass SIGTERM on unless it execs it.
  const hint = left.some((line) => line.includes('services/app/main.ts'))
    ? 'npm did not pass SIGTERM on to the service: the start script must exec it ("start": "exec tsx services/app/main.ts")\n'
    : '';
  expect(exit, `${hint}${started.output()}`).toEqual({ code: 0, signal: null });
  expect(left, 'processes left behind').toEqual([]);
  expect(await readEmbeddedDatabaseUrl(dataDir), 'the database-url file is removed').toBeUndefined();
}

describe('npm start / SIGTERM / npm start again (embedded PostgreSQL)', () => {
  const streamId = `e2e-${Date.now()}`;
  let firstMigrations: { name: string; applied_at: Date }[] = [];

  it('answers GET /healthz within 30 seconds with no DATABASE_URL, and keeps an event', async () => {
    const started = await npmStart(true);
    try {
      expect(started.secondsToHealthy).toBeLessThan(30);
      // npm runs the service on the Node.js pinned in package.json, whatever the machine has.
      const runtime = /"node":"v(\d+)\.\d+\.\d+"/.exec(started.output());
      expect(runtime, started.output()).not.toBeNull();
      expect(Number(runtime![1])).toBeGreaterThanOrEqual(24);
      const ready = await fetch(`${started.url}/readyz`);
      expect(ready.status).toBe(200);

      // The embedded server is under DATA_DIR and tells its URL to other commands.
      const databaseUrl = await readEmbeddedDatabaseUrl(dataDir);
      expect(databaseUrl).toMatch(/^postgres:\/\/.+@127\.0\.0\.1:\d+\/postgres$/);
      expect((await processesUsing(path.join(dataDir, 'postgres'))).length).toBeGreaterThan(0);
      const pool = createPool(databaseUrl!, 2);
      const store = new PostgresEventStore(pool, databaseUrl!);
      try {
        await store.append(streamId, [{ type: 'e2e.noted', data: { kept: true } }], 'no_stream');
        firstMigrations = (
          await pool.query<{ name: string; applied_at: Date }>(
            'select name, applied_at from schema_migrations order by name',
          )
        ).rows;
        expect(firstMigrations.length).toBeGreaterThan(0);
      } finally {
        await store.close();
        await pool.end();
      }

      // `npm run rebuild` uses the running server (no second PostgreSQL on the same folder).
      const rebuild = npm(['run', 'rebuild'], userEnv({ DATA_DIR: dataDir }));
      const rebuilt = await rebuild.exited;
      expect(rebuilt, rebuild.output()).toEqual({ code: 0, signal: null });
      expect(rebuild.output()).toContain(`rebuilding in the running embedded PostgreSQL of ${dataDir}`);
      expect(rebuild.output()).toMatch(/rebuild .*100% \d+\/\d+ events/);
      expect((await fetch(`${started.url}/readyz`)).status).toBe(200);
    } finally {
      if (started.child.exitCode === null) await stopWithSigterm(started);
    }
  }, 90_000);

  it('a second start on the same DATA_DIR keeps the data and applies no migration again', async () => {
    const started = await npmStart();
    try {
      const databaseUrl = await readEmbeddedDatabaseUrl(dataDir);
      const pool = createPool(databaseUrl!, 2);
      const store = new PostgresEventStore(pool, databaseUrl!);
      try {
        const events = await store.readStream(streamId);
        expect(events.map((event) => [event.type, event.data])).toEqual([['e2e.noted', { kept: true }]]);
        const migrations = await pool.query<{ name: string; applied_at: Date }>(
          'select name, applied_at from schema_migrations order by name',
        );
        // Same rows, same times: nothing was applied twice (new files may have been added).
        expect(migrations.rows.slice(0, firstMigrations.length)).toEqual(firstMigrations);
      } finally {
        await store.close();
        await pool.end();
      }
    } finally {
      if (started.child.exitCode === null) await stopWithSigterm(started);
    }
  }, 90_000);
});

describe('bad settings', () => {
  it('PORT=abc npm start exits non-zero with a message naming PORT, and starts no database', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'onboarding-e2e-bad-'));
    try {
      const started = npm(START_WITHOUT_BUILD, userEnv({ DATA_DIR: folder, PORT: 'abc' }));
      let stderr = '';
      started.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exit = await started.exited;
      expect(exit.code).not.toBe(0);
      expect(exit.code).not.toBeNull();
      expect(stderr).toContain('PORT="abc"');
      expect(stderr).toContain('expected a port number');
      expect(await processesUsing(folder)).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 30_000);

  it('an ADMIN_TOKEN under 32 characters stops npm start with a message that does not repeat it', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'onboarding-e2e-bad-'));
    const token = 'short-admin-token-31-characters';
    try {
      const started = npm(START_WITHOUT_BUILD, userEnv({ DATA_DIR: folder, ADMIN_TOKEN: token }));
      let stderr = '';
      started.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exit = await started.exited;
      expect(exit.code).not.toBe(0);
      expect(exit.code).not.toBeNull();
      expect(stderr).toContain('ADMIN_TOKEN=(hidden): expected at least 32 characters');
      expect(stderr).not.toContain(token);
      expect(await processesUsing(folder)).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 30_000);
});
