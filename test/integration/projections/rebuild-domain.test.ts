import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjections } from '../../../services/app/projections.ts';
import { rebuildProjections, type RebuildProgress } from '../../../shared/projections/rebuild.ts';
import { trustCertificatesForTests } from '../../../shared/net/outbound.ts';
import { PUBLIC_EVENT_TYPES } from '../../../services/events/contract/public-event-types.ts';
import { ONBOARDING_EVENT_TYPES } from '../../../services/onboardings/onboarding-events.ts';
import {
  selfSignedCertificate,
  startHttpsReceiver,
  type HttpsReceiver,
} from '../../helpers/https-receiver.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest } from '../../helpers/tenant.ts';
import { advanceClock, drain } from '../portal-fixtures.ts';
import { produceDomainLog, seededRandom, type DomainLog } from './rebuild-domain-fixtures.ts';

/**
 * The rebuild invariant on the real projections:
 * a log written by the service itself through HTTP (rebuild-domain-fixtures.ts: teams,
 * members, API keys, templates, clients, onboardings through every status, portal answers,
 * files, signatures, payments, hooks, an erasure, timers) is replayed by rebuildProjections
 * into fresh tables, which must equal the live ones row for row, and every GET must answer
 * the same JSON before and after. The choices of the flow are seeded; the seed is printed
 * and REBUILD_SEED=<seed> replays it.
 */

const SEED = Number(process.env.REBUILD_SEED ?? Math.floor(Math.random() * 2 ** 31));
const START = new Date('2031-03-14T08:30:00.000Z');

let service: TestService;
/** Where the hook subscriptions deliver (answers 200), so deliveries settle at once. */
let receiver: HttpsReceiver;
let log: DomainLog;

beforeAll(async () => {
  console.log(`rebuild-domain: REBUILD_SEED=${SEED}`);
  receiver = await startHttpsReceiver();
  service = await startTestService({ RATE_LIMITS: 'off', HOOK_TARGET_ALLOWLIST: '127.0.0.1' });
  service.clock.set(START);
  trustCertificatesForTests(service.context, (await selfSignedCertificate()).cert);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

const tables = allProjections.flatMap((projection) => projection.tables);

/** Every row of every projection table, as sorted JSON text: the full row-for-row picture. */
async function rowsOf(): Promise<Record<string, string[]>> {
  const picture: Record<string, string[]> = {};
  for (const table of tables) {
    const { rows } = await service.database.pool.query<{ row: string }>(
      `select to_jsonb(t)::text as row from "${table}" t`,
    );
    picture[table] = rows.map((r) => r.row).sort();
  }
  return picture;
}

/** Per table, the rows only one side has (empty when equal): a failure shows just the difference. */
function differences(live: Record<string, string[]>, rebuilt: Record<string, string[]>) {
  const diff: Record<string, { onlyLive: unknown[]; onlyRebuilt: unknown[] }> = {};
  for (const table of tables) {
    const left = live[table] ?? [];
    const right = rebuilt[table] ?? [];
    const onlyLive = left.filter((row) => !right.includes(row)).map((row) => JSON.parse(row));
    const onlyRebuilt = right.filter((row) => !left.includes(row)).map((row) => JSON.parse(row));
    if (onlyLive.length + onlyRebuilt.length > 0 || left.length !== right.length) {
      diff[table] = { onlyLive, onlyRebuilt };
    }
  }
  return diff;
}

/** What the public API answers for everything the flow made, per team (status and JSON body). */
async function apiPicture(): Promise<Record<string, unknown>> {
  const picture: Record<string, unknown> = {};
  for (const { teamId, apiKey } of log.teams) {
    const get = async (path: string) => {
      const answer = await apiRequest(service, apiKey, 'GET', path);
      // An error body carries the request's own id: not read-model data.
      const body =
        answer.status >= 400 && answer.body && typeof answer.body === 'object'
          ? { ...answer.body, request_id: undefined }
          : answer.body;
      picture[`${teamId} GET ${path}`] = { status: answer.status, body };
    };
    await get('/me');
    await get('/clients?limit=100');
    for (const id of log.clientIds) await get(`/clients/${id}`);
    for (const archived of ['false', 'all', 'only']) await get(`/onboardings?limit=100&archived=${archived}`);
    for (const status of ['draft', 'sent', 'in_progress', 'completed', 'cancelled', 'expired']) {
      await get(`/onboardings?limit=100&archived=all&status=${status}`);
    }
    for (const id of log.onboardingIds) {
      await get(`/onboardings/${id}`);
      await get(`/responses?onboarding_id=${id}&limit=100`);
    }
    await get('/events?limit=100');
    for (const type of PUBLIC_EVENT_TYPES) await get(`/events?limit=100&type=${type}`);
    await get('/templates?limit=100');
    for (const id of log.templateIds) await get(`/templates/${id}`);
  }
  return picture;
}

/** The GET picture is not vacuous: lists with items, gets that find, responses with values. */
function expectSubstantial(picture: Record<string, unknown>) {
  const answers = Object.entries(picture) as [string, { status: number; body: any }][];
  const found = (pattern: RegExp, has: (body: any) => boolean) =>
    answers.filter(([key, { status, body }]) => pattern.test(key) && status === 200 && has(body)).length;
  expect(
    found(/GET \/clients\?/, (body) => body.clients.length > 0),
    'client lists',
  ).toBe(log.teams.length);
  expect(found(/GET \/onboardings\?limit=100&archived=all$/, (body) => body.onboardings.length > 0)).toBe(
    log.teams.length,
  );
  expect(found(/GET \/events\?limit=100$/, (body) => body.events.length > 0)).toBe(log.teams.length);
  expect(found(/GET \/templates\?/, (body) => body.templates.length > 0)).toBe(log.teams.length);
  expect(found(/GET \/onboardings\/[0-9a-f-]{36}$/, (body) => Boolean(body.onboarding))).toBeGreaterThan(5);
  expect(found(/GET \/responses\?/, (body) => body.responses.length > 0)).toBeGreaterThan(2);
}

const count = async (sql: string) =>
  Number((await service.database.pool.query<{ n: string }>(`select count(*) as n from ${sql}`)).rows[0]!.n);

async function rebuildAndCompare() {
  await drain(service);
  const live = await rowsOf();
  const apiBefore = await apiPicture();
  expectSubstantial(apiBefore);
  const progress: RebuildProgress[] = [];
  const result = await rebuildProjections(
    service.database.pool,
    service.context.eventStore,
    allProjections,
    (p) => progress.push(p),
  );
  expect(result.events).toBeGreaterThan(100);
  expect(progress.at(-1)?.events).toBe(result.events);
  const rebuilt = await rowsOf();
  expect(differences(live, rebuilt), `rebuilt tables equal the live ones (REBUILD_SEED=${SEED})`).toEqual({});
  expect(rebuilt).toEqual(live);
  expect(await apiPicture(), `same GET answers (REBUILD_SEED=${SEED})`).toEqual(apiBefore);
  return live;
}

describe(`rebuild of the domain projections (REBUILD_SEED=${SEED})`, () => {
  it('a realistic log: every table rebuilt equals the live table row for row, every GET the same', async () => {
    log = await produceDomainLog(service, seededRandom(SEED), receiver.url);
    const live = await rowsOf();

    // The flow fills every table of every projection: the comparison cannot pass on empty tables.
    for (const table of tables) expect(live[table]!.length, `${table} has rows`).toBeGreaterThan(0);
    // And it reaches what the projections have to get right.
    const { rows: statuses } = await service.database.pool.query<{ status: string }>(
      'select distinct status from onboardings order by status',
    );
    expect(statuses.map((row) => row.status)).toEqual(
      ['cancelled', 'completed', 'draft', 'expired', 'in_progress', 'sent'].sort(),
    );
    // Two teams of the operator and one signed up in the workspace (the reviews).
    expect(await count('teams')).toBe(3);
    expect(await count('team_members where removed_at is not null')).toBe(1);
    expect(await count('api_keys where revoked_at is not null')).toBe(1);
    expect(await count('templates where deleted_at is not null')).toBe(1);
    expect(await count('templates where gallery')).toBe(1);
    expect(await count('hook_subscriptions where not active')).toBe(1);
    expect(await count('webhook_endpoints where deleted_at is not null')).toBe(1);
    expect(await count(`clients where custom_fields <> '{}'::jsonb`)).toBeGreaterThan(0);
    expect(await count('clients where erased_at is not null and name is null and email is null')).toBe(1);
    expect(await count('onboardings where client_erased_at is not null')).toBe(2);
    expect(await count('onboardings where archived_at is not null')).toBe(1);
    expect(await count('onboardings where assigned_to is not null')).toBeGreaterThan(0);
    expect(await count('onboardings where due_on is not null')).toBeGreaterThan(0);
    expect(await count('onboardings where due_on is null and due_date is not null')).toBeGreaterThan(0);
    expect(await count('onboarding_links where send_number = 2')).toBeGreaterThan(0);
    expect(await count('onboarding_links where deactivated_at is not null')).toBeGreaterThan(0);
    for (const kind of ['answer', 'signature', 'file']) {
      expect(await count(`responses where kind = '${kind}' and value is not null`), kind).toBeGreaterThan(0);
    }
    expect(await count(`responses where status = 'submitted'`)).toBeGreaterThan(0);
    expect(
      await count('responses r join clients c on c.id = r.client_id where c.erased_at is not null'),
    ).toBe(
      await count(
        'responses r join clients c on c.id = r.client_id where c.erased_at is not null and r.value is null',
      ),
    );
    expect(
      await count('responses r join clients c on c.id = r.client_id where c.erased_at is not null'),
    ).toBeGreaterThan(0);
    // Every onboarding event type reached the log (answer_saved is not an audit event).
    const { rows: types } = await service.database.pool.query<{ type: string }>(
      'select distinct type from events',
    );
    const logged = new Set(types.map((row) => row.type));
    expect(ONBOARDING_EVENT_TYPES.filter((type) => !logged.has(type))).toEqual([]);

    await rebuildAndCompare();
  }, 180_000);

  it('after the swap the live runner goes on, and a second rebuild still equals the live tables', async () => {
    const [team] = log.teams;
    await advanceClock(service, 3600);
    const api = (method: string, path: string, body?: unknown) =>
      apiRequest(service, team!.apiKey, method, path, { body });
    const client = await api('POST', '/clients', {
      name: 'After Rebuild',
      email: 'after.rebuild@example.com',
      custom_fields: { late: true },
    });
    expect(client.status).toBe(201);
    log.clientIds.push(client.body.client.id);
    // Team A's form template is the first the flow made.
    const created = await api('POST', '/onboardings', {
      template_id: log.templateIds[0],
      client_id: client.body.client.id,
      due_date: '2031-12-31',
    });
    expect(created.status).toBe(201);
    const onboardingId: string = created.body.onboarding.id;
    log.onboardingIds.push(onboardingId);
    expect((await api('POST', `/onboardings/${onboardingId}/send`, {})).status).toBe(200);
    expect((await api('PATCH', `/onboardings/${onboardingId}`, { status: 'in_progress' })).status).toBe(200);
    await rebuildAndCompare();
  }, 120_000);
});
