import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjections } from '../../services/app/projections.ts';
import { readEmbeddedDatabaseUrl } from '../../shared/db/embedded-postgres.ts';
import { createPool } from '../../shared/db/pool.ts';
import { lockFilePid } from '../../shared/db/postmaster-process.ts';
import { startLoad } from '../helpers/load-loop.ts';
import { ADMIN_TOKEN } from '../helpers/service.ts';
import { createTeamWithKey } from '../helpers/tenant.ts';
import {
  alive,
  groups,
  killGroup,
  npm,
  npmStart,
  parentPid,
  processesUsing,
  userEnv,
  waitUntil,
  type Started,
} from './npm-process.ts';

/**
 * A crash of the node process must never block the next start, nor lose an acknowledged
 * write: `npm start` killed with SIGKILL under a load of writes, then started again on
 * the same DATA_DIR.
 *
 * - The embedded PostgreSQL stops by itself when node dies (its watchdog).
 * - Should a postmaster be left all the same (its watchdog killed too), the next start
 *   stops it (the PID in postmaster.pid, checked to be that directory's postgres).
 * - After the restart every write answered 201 is there, and the read models equal a
 *   rebuild (`npm run rebuild`) row for row.
 */

const settings = { ADMIN_TOKEN, RATE_LIMITS: 'off', LOG_LEVEL: 'warn' };
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'onboarding-e2e-crash-'));
});
afterAll(async () => {
  for (const group of groups) killGroup(group);
  await new Promise((resolve) => setTimeout(resolve, 200));
  await rm(dataDir, { recursive: true, force: true });
});

const databaseDir = () => path.join(dataDir, 'postgres');

/** The node process that runs the service: the parent of its embedded postmaster. */
async function serviceProcess(): Promise<{ node: number; postmaster: number }> {
  const postmaster = await lockFilePid(databaseDir());
  expect(postmaster).toBeGreaterThan(0);
  const node = await parentPid(postmaster!);
  expect(node).toBeGreaterThan(1);
  return { node: node!, postmaster: postmaster! };
}

/** Writes clients under load until `count` are acknowledged, then runs `kill` with the load still on. */
async function killUnderLoad(started: Started, count: number, kill: () => Promise<void>): Promise<string[]> {
  const team = await createTeamWithKey({ url: started.url });
  const load = startLoad(
    started.url,
    (worker, turn) => ({
      method: 'POST',
      path: '/api/v1/clients',
      headers: { authorization: `Bearer ${team.apiKey}` },
      body: { name: `Crash ${worker}-${turn}`, email: `crash-${randomUUID()}@example.com` },
    }),
    { workers: 6, requestTimeoutMs: 5000 },
  );
  try {
    await load.successes(count, 60_000);
    await kill();
  } finally {
    await load.stop();
  }
  await started.exited;
  return load.outcomes
    .filter((outcome) => outcome.status === 201)
    .map((outcome) => (outcome.body as { client: { id: string } }).client.id);
}

/** Every acknowledged client is in the log and in the read model. */
async function expectAllVisible(ids: string[]) {
  const pool = createPool((await readEmbeddedDatabaseUrl(dataDir))!, 2);
  try {
    const inReadModel = await pool.query<{ id: string }>(
      'select id from clients where id = any($1::uuid[])',
      [ids],
    );
    expect(new Set(inReadModel.rows.map((row) => row.id))).toEqual(new Set(ids));
    const inLog = await pool.query<{ id: string }>(
      `select data->>'client_id' as id from events where type = 'client.created' and data->>'client_id' = any($1)`,
      [ids],
    );
    expect(new Set(inLog.rows.map((row) => row.id))).toEqual(new Set(ids));
  } finally {
    await pool.end();
  }
}

/** Every row of every read model, as sorted JSON. */
async function readModels(): Promise<Record<string, string[]>> {
  const pool = createPool((await readEmbeddedDatabaseUrl(dataDir))!, 1);
  try {
    const picture: Record<string, string[]> = {};
    for (const table of allProjections.flatMap((projection) => projection.tables)) {
      const { rows } = await pool.query<{ row: string }>(`select to_jsonb(t)::text as row from "${table}" t`);
      picture[table] = rows.map((row) => row.row).sort();
    }
    return picture;
  } finally {
    await pool.end();
  }
}

async function drain(url: string) {
  const answer = await fetch(`${url}/admin/v1/work/drain`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(answer.status, await answer.text()).toBe(200);
}

async function stopWithSigterm(started: Started) {
  started.child.kill('SIGTERM');
  expect(await started.exited, started.output()).toEqual({ code: 0, signal: null });
  expect(await waitUntil(async () => (await processesUsing(dataDir)).length === 0, 5000)).toBe(true);
}

describe('SIGKILL of node under load, then npm start again on the same DATA_DIR', () => {
  it('PostgreSQL stops with node (its watchdog); the next start keeps every acknowledged write; read models equal a rebuild', async () => {
    const first = await npmStart(dataDir, settings, 60);
    let postmaster = 0;
    const acknowledged = await killUnderLoad(first, 150, async () => {
      const pids = await serviceProcess();
      postmaster = pids.postmaster;
      process.kill(pids.node, 'SIGKILL');
    });
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);
    expect(
      await waitUntil(() => !alive(postmaster), 15_000),
      'the embedded PostgreSQL stops when node dies',
    ).toBe(true);
    expect(await processesUsing(databaseDir())).toEqual([]);

    const second = await npmStart(dataDir, settings, 60);
    try {
      await drain(second.url);
      await expectAllVisible(acknowledged);

      const live = await readModels();
      const rebuild = npm(['run', 'rebuild'], userEnv({ DATA_DIR: dataDir }));
      expect(await rebuild.exited, rebuild.output()).toEqual({ code: 0, signal: null });
      expect(await readModels()).toEqual(live);
      expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
    } finally {
      await stopWithSigterm(second);
    }
  }, 180_000);

  it('a postmaster left running by a killed run (node and its watchdog killed) is stopped by the next npm start', async () => {
    const first = await npmStart(dataDir, settings, 60);
    let orphan = 0;
    const acknowledged = await killUnderLoad(first, 50, async () => {
      const pids = await serviceProcess();
      orphan = pids.postmaster;
      const watchdogs = (await processesUsing('postmaster-watchdog')).filter((line) =>
        line.endsWith(` ${pids.postmaster}`),
      );
      expect(watchdogs).toHaveLength(1);
      process.kill(Number(watchdogs[0]!.split(' ')[0]), 'SIGKILL');
      process.kill(pids.node, 'SIGKILL');
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(alive(orphan), 'the postmaster is orphaned').toBe(true);

    const second = await npmStart(dataDir, settings, 60);
    try {
      expect(alive(orphan), 'the orphan was stopped').toBe(false);
      expect(second.output()).toContain(`"postmasterPid":${orphan}`);
      expect(second.output()).toContain('stopped PostgreSQL left running on DATA_DIR by an earlier run');
      await drain(second.url);
      await expectAllVisible(acknowledged);
    } finally {
      await stopWithSigterm(second);
    }
  }, 180_000);
});
