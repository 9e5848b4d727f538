/**
 * Several instances on one database, as child processes over real HTTP: two API-only
 * instances (SERVICE_ROLE=api) and one worker (SERVICE_ROLE=worker: projections, consumers,
 * scheduler, mail, hook delivery), Redis for the shared rate limits. Load goes through both
 * API instances while the worker is killed with SIGKILL and two others are started. Then:
 * every acknowledged command is visible through both instances, the read models equal a
 * rebuild, every hook delivery and invite email went out once (distinct webhook-ids, one
 * message per outbox row), and the per-key limit holds across the two instances.
 */
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allProjections } from '../../../services/app/projections.ts';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import { rebuildProjections } from '../../../shared/projections/rebuild.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import {
  selfSignedCertificate,
  startHttpsReceiver,
  type HttpsReceiver,
} from '../../helpers/https-receiver.ts';
import { startTestRedis, type TestRedis } from '../../helpers/redis-server.ts';
import { startServiceProcess, type ServiceProcess } from '../../helpers/service-process.ts';
import { ADMIN_TOKEN, TEST_PERSONAL_DATA_KEK } from '../../helpers/service.ts';
import { parseKeyRing } from '../../../shared/privacy/key-encryption-key.ts';
import { installProcessKeyRing } from '../../../shared/privacy/process-key-ring.ts';
import { startSmtpServer, type SmtpTestServer } from '../../helpers/smtp.ts';
import { apiRequest, createTeamWithKey, createTemplate, type TeamWithKey } from '../../helpers/tenant.ts';

let database: TestDatabase;
let redis: TestRedis;
let receiver: HttpsReceiver;
let smtp: SmtpTestServer;
let certDir: string;
let apiA: ServiceProcess;
let apiB: ServiceProcess;
const workers: ServiceProcess[] = [];

const worker = () => workers.at(-1)!;

beforeAll(async () => {
  // The rebuild below runs in this process: it opens the instances' data with their KEK.
  installProcessKeyRing(parseKeyRing(TEST_PERSONAL_DATA_KEK));
  database = await createTestDatabase();
  [redis, receiver, smtp] = await Promise.all([startTestRedis(), startHttpsReceiver(), startSmtpServer()]);
  certDir = await mkdtemp(path.join(tmpdir(), 'instances-ca-'));
  const caFile = path.join(certDir, 'receiver.pem');
  await writeFile(caFile, (await selfSignedCertificate()).cert);
  const common = {
    DATABASE_URL: database.url,
    PERSONAL_DATA_KEK: TEST_PERSONAL_DATA_KEK,
    ADMIN_TOKEN,
    HOOK_TARGET_ALLOWLIST: '127.0.0.1',
    NODE_EXTRA_CA_CERTS: caFile,
  };
  // READY_MAX_LAG_SECONDS=1: an API instance stays ready while the worker is down (lag is the worker's).
  const api = {
    ...common,
    SERVICE_ROLE: 'api',
    REDIS_URL: redis.url,
    TRUST_PROXY: 'on',
    READY_MAX_LAG_SECONDS: '1',
  };
  [apiA, apiB] = await Promise.all([startServiceProcess(api), startServiceProcess(api)]);
  workers.push(await startServiceProcess(workerEnv(common)));
}, 90_000);

let workerEnv = (common: Record<string, string>) => {
  const env = { ...common, SERVICE_ROLE: 'worker', SMTP_URL: smtp.url };
  workerEnv = () => env;
  return env;
};

afterAll(async () => {
  await Promise.all([apiA?.stop(), apiB?.stop(), ...workers.map((w) => w.stop())]);
  await Promise.all([redis?.stop(), receiver?.close(), smtp?.close()]);
  await database?.drop();
  if (certDir) await rm(certDir, { recursive: true, force: true });
});

/** Requests come from several client addresses (TRUST_PROXY), so the per-IP limit is not the one tested. */
let ipCounter = 0;
const fromAnyIp = () => ({ 'x-forwarded-for': `198.51.100.${(ipCounter++ % 200) + 1}` });

interface Tenant extends TeamWithKey {
  templateId: string;
}

async function tenant(): Promise<Tenant> {
  const made = await createTeamWithKey(apiA, { plan: 'pro' });
  const template = await createTemplate(apiB, made.teamId);
  const subscribed = await apiRequest(apiB, made.apiKey, 'POST', '/automation/subscribe', {
    body: { event: 'onboarding.sent', target_url: `${receiver.url}/hooks/${made.teamId}` },
    headers: fromAnyIp(),
  });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);
  return { ...made, templateId: template.id };
}

/** What the load had acknowledged (2xx), by kind. */
const acknowledged = { clients: [] as [Tenant, string][], sent: [] as [Tenant, string][] };

/**
 * One client's way through the API, alternating the instances: each write on one instance
 * is read at once on the other (read your writes across instances). A 503 read_models_lagging
 * (the worker down for longer than the wait) is a command that committed but was not
 * acknowledged; the load goes on with the next client.
 */
async function oneClient(team: Tenant, index: number, [first, second]: ServiceProcess[]) {
  const post = (service: ServiceProcess, route: string, body: unknown) =>
    apiRequest(service, team.apiKey, 'POST', route, { body, headers: fromAnyIp() });
  const get = (service: ServiceProcess, route: string) =>
    apiRequest(service, team.apiKey, 'GET', route, { headers: fromAnyIp() });

  const client = await post(first!, '/clients', { name: `Client ${index}`, email: `c${index}@example.com` });
  if (client.status !== 201) return expect(client.body?.code).toBe('read_models_lagging');
  const clientId = client.body.client.id as string;
  acknowledged.clients.push([team, clientId]);
  expect((await get(second!, `/clients/${clientId}`)).status).toBe(200);

  const onboarding = await post(second!, '/onboardings', {
    template_id: team.templateId,
    client_id: clientId,
  });
  if (onboarding.status !== 201) return expect(onboarding.body?.code).toBe('read_models_lagging');
  const onboardingId = onboarding.body.onboarding.id as string;
  expect((await get(first!, `/onboardings/${onboardingId}`)).status).toBe(200);

  const sent = await post(first!, `/onboardings/${onboardingId}/send`, {});
  if (sent.status !== 200) return expect(sent.body?.code).toBe('read_models_lagging');
  acknowledged.sent.push([team, onboardingId]);
  const seen = await get(second!, `/onboardings/${onboardingId}`);
  expect(seen.body.onboarding.status).toBe('sent');
}

const rows = async <Row>(sql: string, params: unknown[] = []) =>
  (await database.pool.query(sql, params)).rows as Row[];

/** Rows a killed worker held when it died: each may go out once more (at least once, same id). */
const inFlightAtKill = { hooks: 0, mail: 0 };

/** Ends the leases a killed worker held, instead of waiting the two minutes for them to run out. */
async function endLeasesOfTheKilledWorker() {
  const hooks = await database.pool.query(
    'update hook_deliveries set leased_until = now() where leased_until > now()',
  );
  const mail = await database.pool.query(
    'update mail_outbox set leased_until = now() where leased_until > now()',
  );
  inFlightAtKill.hooks = hooks.rowCount ?? 0;
  inFlightAtKill.mail = mail.rowCount ?? 0;
}

/** Every id once in the set; repeats only as many as rows were in flight when the worker died. */
function expectEachOnce(received: string[], expected: string[], inFlight: number) {
  expect([...new Set(received)].sort()).toEqual([...expected].sort());
  expect(received.length - expected.length).toBeLessThanOrEqual(inFlight);
}

/** Every row of every projection table, sorted: the full picture of the read models. */
async function readModels(): Promise<Record<string, string[]>> {
  const picture: Record<string, string[]> = {};
  for (const table of allProjections.flatMap((projection) => projection.tables)) {
    const found = await rows<{ row: string }>(`select to_jsonb(t)::text as row from "${table}" t`);
    picture[table] = found.map((r) => r.row).sort();
  }
  return picture;
}

describe('two API instances and a worker on one database', { timeout: 120_000 }, () => {
  test('load through both instances survives a SIGKILLed worker: visible, rebuilt equal, each hook and email once', async () => {
    const teams = [await tenant(), await tenant()];
    const PER_TEAM = 14;
    const load = teams.map(async (team, t) => {
      for (let i = 0; i < PER_TEAM; i++) {
        const order = (i + t) % 2 === 0 ? [apiA, apiB] : [apiB, apiA];
        await oneClient(team, t * 100 + i, order);
      }
    });
    // Mid-way the worker dies without a stop; two others start a moment later.
    const killer = (async () => {
      await expect.poll(() => acknowledged.sent.length, { timeout: 30_000, interval: 20 }).toBeGreaterThan(8);
      await worker().kill();
      await endLeasesOfTheKilledWorker();
      await new Promise((resolve) => setTimeout(resolve, 1500)); // commands wait, events age past 1 s
      for (const service of [apiA, apiB]) expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      // Two at once: every part of a worker is safe to run twice (projections, consumers, queues).
      workers.push(
        ...(await Promise.all([startServiceProcess(workerEnv({})), startServiceProcess(workerEnv({}))])),
      );
    })();
    await Promise.all([...load, killer]);
    expect(acknowledged.sent.length, worker().output()).toBeGreaterThan(PER_TEAM);

    // Every acknowledged command is visible through both API instances.
    for (const service of [apiA, apiB]) {
      for (const [team, id] of acknowledged.clients) {
        const answer = await apiRequest(service, team.apiKey, 'GET', `/clients/${id}`, {
          headers: fromAnyIp(),
        });
        expect(answer.status).toBe(200);
      }
      for (const [team, id] of acknowledged.sent) {
        const answer = await apiRequest(service, team.apiKey, 'GET', `/onboardings/${id}`, {
          headers: fromAnyIp(),
        });
        expect(answer.body.onboarding.status).toBe('sent');
      }
    }

    // Each committed send: one hook delivery per subscription and one invite, all gone out.
    const sends = await rows<{ id: string }>("select id from mail_outbox where kind = 'invite'");
    await expect
      .poll(async () => (await rows("select 1 from mail_outbox where status <> 'sent'")).length, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(0);
    await expect
      .poll(async () => (await rows("select 1 from hook_deliveries where state <> 'delivered'")).length, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(0);
    const sentEvents = await rows<{ id: string }>(
      "select event_id as id from hook_deliveries where event_type = 'onboarding.sent'",
    );
    const onboardingsSent = await rows<{ n: string }>(
      "select count(*) as n from events where type = 'onboarding.sent'",
    );
    expect(sentEvents).toHaveLength(Number(onboardingsSent[0]!.n));
    expect(sends).toHaveLength(Number(onboardingsSent[0]!.n));
    for (const [, id] of acknowledged.sent) {
      expect(
        await rows("select 1 from mail_outbox where onboarding_id = $1 and kind = 'invite'", [id]),
      ).toHaveLength(1);
    }

    // Hooks: every delivery arrived under its own webhook-id; none doubled.
    const deliveryIds = (await rows<{ id: string }>('select id from hook_deliveries')).map((r) => r.id);
    const webhookIds = receiver.requests.map((r) => String(r.headers['webhook-id']));
    expectEachOnce(webhookIds, deliveryIds, inFlightAtKill.hooks);
    // Email: one message per outbox row (its Message-ID names the row); none doubled.
    const messageIds = smtp.messages.map((m) => m.header('message-id')!.replace(/^<([^@]+)@.*$/, '$1'));
    expectEachOnce(
      messageIds,
      sends.map((s) => s.id),
      inFlightAtKill.mail,
    );
    console.log(
      `several instances: ${acknowledged.sent.length} sends acknowledged, ${deliveryIds.length} hooks, ` +
        `${messageIds.length} emails; in flight at the kill: ${JSON.stringify(inFlightAtKill)}`,
    );

    // The read models equal a rebuild from the log.
    const live = await readModels();
    expect(Object.values(live).flat().length).toBeGreaterThan(3 * acknowledged.sent.length);
    await rebuildProjections(
      database.pool,
      new PostgresEventStore(database.pool, database.url),
      allProjections,
    );
    expect(await readModels()).toEqual(live);
  });

  test('a worker serves health, metrics and the operator API, not the public API', async () => {
    expect((await fetch(`${worker().url}/readyz`)).status).toBe(200);
    expect((await fetch(`${worker().url}/api/v1/me`)).status).toBe(404);
    const parked = await fetch(`${worker().url}/admin/v1/parked-events`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(parked.status).toBe(200);
  });

  test('the per-key limit counts requests to both API instances', async () => {
    const { apiKey } = await createTeamWithKey(apiA, { plan: 'pro' });
    // The windows are the wall clock's minutes: start well inside one.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    const statuses: number[] = [];
    for (let sent = 0; sent < 200; sent += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          apiRequest(i % 2 === 0 ? apiA : apiB, apiKey, 'GET', '/me', { headers: fromAnyIp() }),
        ),
      );
      statuses.push(...batch.map((answer) => answer.status));
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
    for (const service of [apiA, apiB]) {
      const refused = await apiRequest(service, apiKey, 'GET', '/me', { headers: fromAnyIp() });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rate_limited' });
    }
  });
});
