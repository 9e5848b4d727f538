import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEmbeddedDatabaseUrl } from '../../shared/db/embedded-postgres.ts';
import { createPool, type Pool } from '../../shared/db/pool.ts';
import { ADMIN_TOKEN } from '../helpers/service.ts';
import { groups, killGroup, npmStart, processesUsing, waitUntil } from './npm-process.ts';

/**
 * A backlog of outbound work whose targets never answer must neither hold a stop nor a
 * drain past its bounds: 2,000 hook deliveries are due to a local HTTPS target
 * (allowed by HOOK_TARGET_ALLOWLIST) that accepts connections and never says a word.
 *
 * - POST /admin/v1/work/drain answers 503 drain_timeout within its 30-second cap;
 * - SIGTERM ends `npm start` within 10 seconds, exit code 0, nothing left running.
 */

const DELIVERIES = 2000;
let dataDir: string;
let target: Server;
let targetPort: number;
const held = new Set<Socket>();

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'onboarding-e2e-backlog-'));
  // Accepts, then says nothing: a TLS handshake that never completes.
  target = createServer((socket) => {
    held.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => held.delete(socket));
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetPort = (target.address() as { port: number }).port;
});
afterAll(async () => {
  for (const group of groups) killGroup(group);
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => target?.close(resolve));
  await new Promise((resolve) => setTimeout(resolve, 200));
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * 2,000 deliveries due now, each of another team: every one is an endpoint of its own
 * (a team's target host), so none rests because another went unanswered, and the backlog
 * takes far longer than any cap.
 */
async function queueDueDeliveries(pool: Pool) {
  await pool.query(
    `insert into hook_deliveries
       (id, subscription_id, team_id, event_id, event_type, target_url, body, state,
        next_attempt_at, created_at, updated_at)
     select gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'client.created',
            $1, '{}', 'pending', now() - interval '1 minute', now(), now()
     from generate_series(1, $2)`,
    [`https://127.0.0.1:${targetPort}/hook`, DELIVERIES],
  );
}

describe('SIGTERM and the drain with 2,000 due hook deliveries to a target that never answers', () => {
  it('the drain answers 503 within its cap; SIGTERM exits within 10 seconds', async () => {
    const started = await npmStart(
      dataDir,
      { ADMIN_TOKEN, LOG_LEVEL: 'warn', HOOK_TARGET_ALLOWLIST: '127.0.0.1' },
      60,
    );
    const pool = createPool((await readEmbeddedDatabaseUrl(dataDir))!, 2);
    try {
      await queueDueDeliveries(pool);
      const due = await pool.query<{ count: number }>(
        `select count(*)::int as count from hook_deliveries where state = 'pending'`,
      );
      expect(due.rows[0]!.count).toBe(DELIVERIES);

      // The drain: bounded by its 30-second cap although the passes never finish their work.
      const drainStarted = Date.now();
      const drained = await fetch(`${started.url}/admin/v1/work/drain`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const drainSeconds = (Date.now() - drainStarted) / 1000;
      expect(drained.status).toBe(503);
      expect(await drained.json()).toMatchObject({ code: 'drain_timeout', retryable: true });
      expect(drainSeconds).toBeLessThan(32);

      // Requests are in flight to the silent target when the stop comes.
      expect(await waitUntil(() => held.size >= 8, 20_000), 'deliveries in flight').toBe(true);
    } finally {
      await pool.end();
    }

    const stopStarted = Date.now();
    started.child.kill('SIGTERM');
    const exit = await Promise.race([
      started.exited,
      new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 20_000)),
    ]);
    const stopSeconds = (Date.now() - stopStarted) / 1000;
    expect(exit, started.output()).toEqual({ code: 0, signal: null });
    expect(stopSeconds, started.output()).toBeLessThan(10);
    expect(await waitUntil(async () => (await processesUsing(dataDir)).length === 0, 3000)).toBe(true);
  }, 120_000);
});
