import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEmbeddedDatabaseUrl } from '../../shared/db/embedded-postgres.ts';
import { createPool } from '../../shared/db/pool.ts';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';

/**
 * The acceptance of issue 2, as a user runs it: `npm start` with no DATABASE_URL starts an
 * embedded PostgreSQL under DATA_DIR, answers GET /healthz within 30 seconds, exits 0 on
 * SIGTERM without leaving a postgres process behind, and keeps its data for the next
 * start; `npm run rebuild` works next to it; `PORT=abc npm start` refuses to start.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

let dataDir: string;
/** Process groups of the commands started here (each runs in its own group). */
const groups: number[] = [];
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'onboarding-e2e-'));
});
afterAll(async () => {
  // Should there be anything left (a failed test), end it before removing its folder.
  for (const group of groups) killGroup(group);
  await new Promise((resolve) => setTimeout(resolve, 200));
  await rm(dataDir, { recursive: true, force: true });
});

function killGroup(group: number) {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // nothing left in it
  }
}

/** The environment of a user with none of the service's settings. */
function userEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'EVENTSTORE_URL',
    'KAFKA_BROKERS',
    'SMTP_URL',
    'ADMIN_TOKEN',
    'PUBLIC_URL',
    'TEST_CLOCK',
    'HOST',
    'PORT',
    'DATA_DIR',
    'LOG_LEVEL',
  ]) {
    delete env[name];
  }
  return { ...env, ...overrides };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function npm(args: string[], env: NodeJS.ProcessEnv): Omit<Started, 'url'> {
  // Its own process group: signals below go to npm's pid only (as `kill <pid>` does), and
  // the test can still find and end everything it started.
  const child = spawn('npm', args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  groups.push(child.pid!);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** `npm start` until GET /healthz answers 200; fails after 30 seconds. */
async function npmStart(): Promise<Started & { secondsToHealthy: number }> {
  const port = await freePort();
  const started = npm(['start'], userEnv({ DATA_DIR: dataDir, PORT: String(port) }));
  const url = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  let exitedEarly = false;
  void started.exited.then(() => (exitedEarly = true));
  for (;;) {
    if (exitedEarly) throw new Error(`npm start exited early:\n${started.output()}`);
    const seconds = (performance.now() - startedAt) / 1000;
    if (seconds > 30) {
      killGroup(started.child.pid!);
      throw new Error(`GET /healthz did not answer within 30 seconds:\n${started.output()}`);
    }
    const healthy = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
      (response) => response.status === 200,
      () => false,
    );
    if (healthy) return { ...started, url, secondsToHealthy: seconds };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Processes whose command line names `folder` (postgres runs with -D <DATA_DIR>/postgres),
 * or that belong to process group `group`, as "pid command".
 */
async function processesUsing(folder: string, group?: number): Promise<string[]> {
  const { stdout } = await run('ps', ['-eo', 'pid=,pgid=,args=']);
  return stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, pgid, ...args]) => {
      if (!pid || Number(pid) === process.pid) return false;
      return args.join(' ').includes(folder) || (group !== undefined && Number(pgid) === group);
    })
    .map(([pid, , ...args]) => `${pid} ${args.join(' ')}`);
}

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
  const hint = left.some((line) => line.includes('services/main.ts'))
    ? 'npm did not pass SIGTERM on to the service: the start script must exec it ("start": "exec tsx services/main.ts")\n'
    : '';
  expect(exit, `${hint}${started.output()}`).toEqual({ code: 0, signal: null });
  expect(left, 'processes left behind').toEqual([]);
  expect(await readEmbeddedDatabaseUrl(dataDir), 'the database-url file is removed').toBeUndefined();
}

describe('npm start / SIGTERM / npm start again (embedded PostgreSQL)', () => {
  const streamId = `e2e-${Date.now()}`;
  let firstMigrations: { name: string; applied_at: Date }[] = [];

  it('answers GET /healthz within 30 seconds with no DATABASE_URL, and keeps an event', async () => {
    const started = await npmStart();
    try {
      expect(started.secondsToHealthy).toBeLessThan(30);
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
      const started = npm(['start'], userEnv({ DATA_DIR: folder, PORT: 'abc' }));
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
});
