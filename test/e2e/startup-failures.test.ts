import { createHash } from 'node:crypto';
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_CLUSTER_BASES } from '../../shared/db/embedded-postgres-root.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../shared/db/embedded-postgres.ts';
import { createPool } from '../../shared/db/pool.ts';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import {
  freePort,
  groups,
  killGroup,
  npm,
  npmStart,
  ROOT,
  START_WITHOUT_BUILD,
  systemNode,
  userEnv,
} from './npm-process.ts';

/**
 * A start that cannot succeed is one clear line, a non-zero exit and no stack trace: an
 * unreachable DATABASE_URL, a port in use, an applied migration whose file changed. A
 * DATA_DIR inside a private (0700) folder starts; as root the embedded database's files are
 * then kept where the postgres user can reach them.
 */
let folder: string;
let database: EmbeddedDatabase;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'onboarding-startup-'));
  database = await startEmbeddedPostgres({
    dataDir: path.join(folder, 'shared-db'),
    persistent: false,
    fast: true,
  });
});
afterAll(async () => {
  for (const group of groups) killGroup(group);
  await database?.stop();
  await rm(folder, { recursive: true, force: true });
});

const STACK_FRAME = /^\s{4}at /m;
/** The key-encryption key of these starts (an external database needs one: PERSONAL_DATA_KEK). */
const KEK = 'e2e:ZTJlLW9ubHkta2VrLW9mLXRoaXJ0eS10d28tYnl0ZXM=';

async function failedStart(overrides: Record<string, string>) {
  const started = npm(
    START_WITHOUT_BUILD,
    userEnv({ DATA_DIR: path.join(folder, 'unused'), PERSONAL_DATA_KEK: KEK, ...overrides }),
  );
  const exit = await Promise.race([
    started.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still running:\n${started.output()}`)), 60_000),
    ),
  ]);
  return { code: exit.code, output: started.output() };
}

describe('start-up failures', () => {
  // The machine's own Node.js (20 on the CI machine) cannot run the service; started by hand
  // on it, the service says so in one line instead of failing inside a dependency.
  const machineNode = systemNode();
  const machineMajor = machineNode
    ? Number(/^v(\d+)/.exec(String(execFileSync(machineNode, ['--version'])))?.[1])
    : undefined;
  it.runIf(machineMajor !== undefined && machineMajor < 24)(
    "started by hand on the machine's older Node.js, it is one line saying to use npm start",
    async () => {
      const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
      const refused = await promisify(execFile)(machineNode!, [tsx, 'services/app/main.ts'], {
        cwd: ROOT,
        env: userEnv({ DATA_DIR: path.join(folder, 'unused'), PORT: String(await freePort()) }),
      }).then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(refused?.code).toBe(1);
      expect(refused?.stderr).toContain('This service needs Node.js 24 or newer and was started with v');
      expect(refused?.stderr).not.toMatch(STACK_FRAME);
    },
  );

  it('an unreachable DATABASE_URL is one line naming host and port, never the password', async () => {
    const closedPort = await freePort();
    const { code, output } = await failedStart({
      DATABASE_URL: `postgres://someone:hunter2secret@127.0.0.1:${closedPort}/onboarding`,
      PORT: String(await freePort()),
    });
    expect(code).not.toBe(0);
    expect(output).toContain(
      `Cannot start: the database at 127.0.0.1:${closedPort} cannot be reached (ECONNREFUSED); check DATABASE_URL and that PostgreSQL is running there`,
    );
    expect(output).not.toMatch(STACK_FRAME);
    expect(output).not.toContain('hunter2secret');
  });

  it('DATABASE_URL without PERSONAL_DATA_KEK is one line saying what to set', async () => {
    const { code, output } = await failedStart({
      DATABASE_URL: database.url,
      PORT: String(await freePort()),
      PERSONAL_DATA_KEK: '',
    });
    expect(code).not.toBe(0);
    expect(output).toContain(
      'Cannot start: PERSONAL_DATA_KEK is not set; with DATABASE_URL the key that seals the personal-data keys must come from outside the database',
    );
    expect(output).not.toMatch(STACK_FRAME);
  });

  it('a port in use is one line naming the port', async () => {
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const { code, output } = await failedStart({ DATABASE_URL: database.url, PORT: String(port) });
      expect(code).not.toBe(0);
      expect(output).toContain(
        `Cannot start: port ${port} on 127.0.0.1 is already in use; stop the program using it or set PORT to a free port`,
      );
      expect(output).not.toMatch(STACK_FRAME);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('an applied migration whose file changed stops the start, naming the file', async () => {
    // The previous test migrated this database; a different recorded checksum is what an
    // edited file looks like to the start.
    const pool = createPool(database.url, 1);
    try {
      const { rows } = await pool.query<{ name: string; checksum: string }>(
        'select name, checksum from schema_migrations order by name limit 1',
      );
      expect(rows[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
      await pool.query('update schema_migrations set checksum = $2 where name = $1', [
        rows[0]!.name,
        '0'.repeat(64),
      ]);
      const { code, output } = await failedStart({
        DATABASE_URL: database.url,
        PORT: String(await freePort()),
      });
      expect(code).not.toBe(0);
      expect(output).toContain(
        `Cannot start: Migration ${rows[0]!.name} was changed after it was applied: restore the file as it was and put the change in a new migration`,
      );
      expect(output).not.toMatch(STACK_FRAME);
      await pool.query('update schema_migrations set checksum = $2 where name = $1', [
        rows[0]!.name,
        rows[0]!.checksum,
      ]);
    } finally {
      await pool.end();
    }
  });
});

describe('a DATA_DIR in a private folder', () => {
  it('serves; as root the embedded database lives where the postgres user can reach it', async () => {
    const home = await mkdtemp(path.join(folder, 'home-'));
    await chmod(home, 0o700);
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    const dataDir = path.join(home, 'data');
    const asRoot = process.getuid?.() === 0;
    const clusterName = createHash('sha256')
      .update(path.join(dataDir, 'postgres'))
      .digest('hex')
      .slice(0, 16);
    const started = await npmStart(dataDir, {}, 60);
    try {
      expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
      if (asRoot) {
        expect(started.output()).toContain('the embedded database files are kept in clusterFolder');
        expect(started.output()).toContain(clusterName);
      }
    } finally {
      started.child.kill('SIGTERM');
      await started.exited;
      for (const base of ROOT_CLUSTER_BASES)
        await rm(path.join(base, clusterName), { recursive: true, force: true });
    }
  });
});
