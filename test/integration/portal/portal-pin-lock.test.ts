import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashClientToken, pinHashRuns } from '../../../services/onboardings/link-secrets.ts';
import {
  PIN_FAILURE_LIMIT,
  PIN_FAILURE_WINDOW_SECONDS,
  TOO_MANY_WRONG_PINS,
} from '../../../services/onboardings/portal/portal-pin-attempts.ts';
import { createPool } from '../../../shared/db/pool.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { startTestRedis, type TestRedis } from '../../helpers/redis-server.ts';
import { registerSecrets } from '../../helpers/run-log.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import type { HttpAnswer } from '../../helpers/tenant.ts';
import { createTenant, portal, sentOnboarding, type Tenant } from '../portal-fixtures.ts';

/*
 * The wrong-PIN lock of a portal link (10 wrong PINs per 15 minutes) holds under a burst,
 * across instances and across restarts: attempts are reserved in the shared rate-limit
 * store before the PIN is hashed, and a right PIN is accepted only while the link is still
 * not locked. With the default store (PostgreSQL, no REDIS_URL) and with Redis.
 */

const PIN = '390517';
const WRONG = (index: number) => String(100000 + index).padStart(6, '0');
const BURST = 55;

/** A database of the test's own that outlives the services started on it (a restart). */
let database: TestDatabase;
/** The services of the test still running, stopped after it. */
const running: TestService[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const service of running.splice(0).reverse()) await service.stop();
  await database?.drop();
});

/** A service on the test's database, as a restart would find it (its stop leaves the database). */
async function startOnDatabase(
  env: Record<string, string> = {},
  sharedWith?: TestService,
): Promise<TestService> {
  const service = sharedWith
    ? await startTestService(env, { sharedWith })
    : await startTestService(env, {
        database: { url: database.url, pool: createPool(database.url, 20), drop: async () => undefined },
      });
  running.push(service);
  return service;
}

async function stop(service: TestService): Promise<void> {
  running.splice(running.indexOf(service), 1);
  await service.stop();
}

/** Every clock at `seconds` into the next fresh 15-minute window (the one-minute limits start afresh too). */
function nextWindow(services: TestService[], seconds = 10): Date {
  const now = Math.max(...services.map((service) => service.clock.now().getTime()));
  const windowMs = PIN_FAILURE_WINDOW_SECONDS * 1000;
  const at = new Date(Math.floor(now / windowMs) * windowMs + windowMs + seconds * 1000);
  for (const service of services) service.clock.set(at);
  return at;
}

/**
 * 55 wrong PINs and then the right one, all sent at once, split over `services` in turn;
 * answers the wrong ones' statuses and the right one's answer.
 */
async function burst(
  services: TestService[],
  token: string,
): Promise<{ wrong: number[]; right: HttpAnswer; hashes: number }> {
  const before = pinHashRuns();
  const requests = Array.from({ length: BURST }, (_, index) =>
    portal(services[index % services.length]!, token, 'GET', '', { pin: WRONG(index) }),
  );
  requests.push(portal(services[BURST % services.length]!, token, 'GET', '', { pin: PIN }));
  const answers = await Promise.all(requests);
  return {
    wrong: answers.slice(0, BURST).map((answer) => answer.status),
    right: answers[BURST]!,
    hashes: pinHashRuns() - before,
  };
}

function expectLockedOut(result: { wrong: number[]; right: HttpAnswer; hashes: number }) {
  // At most the limit of wrong PINs were checked (401); the others were refused unhashed.
  expect(result.wrong.filter((status) => status === 401).length).toBeLessThanOrEqual(PIN_FAILURE_LIMIT);
  expect(new Set(result.wrong)).toEqual(new Set([401, 429]));
  expect(result.hashes).toBeLessThanOrEqual(PIN_FAILURE_LIMIT + 1);
  expect(result.right.status).toBe(429);
  expect(result.right.body).toEqual({ error: TOO_MANY_WRONG_PINS, code: 'rate_limited' });
  expect(Number(result.right.headers.get('retry-after'))).toBeGreaterThan(0);
}

async function expectLocked(service: TestService, token: string) {
  const answer = await portal(service, token, 'GET', '', { pin: PIN });
  expect(answer.status).toBe(429);
  expect(answer.body.code).toBe('rate_limited');
  expect((await portal(service, token, 'POST', '/session', { pin: PIN })).status).toBe(429);
  expect((await portal(service, token, 'GET', '/face')).body.link.state).toBe('pin_locked');
}

describe('the default store (PostgreSQL, no REDIS_URL)', () => {
  let service: TestService;
  let tenant: Tenant;

  beforeAll(async () => {
    service = await startOnDatabase();
    tenant = await createTenant(service);
  });
  afterAll(async () => {
    if (running.includes(service)) await stop(service);
  });

  it(`${BURST} wrong PINs and then the right one at once: the right one is refused`, async () => {
    const { token } = await sentOnboarding(service, tenant, { send: { pin: PIN } });
    nextWindow([service]);
    expectLockedOut(await burst([service], token));
    await expectLocked(service, token);
  });

  it('a locked link stays locked after the service restarts, until its window ends', async () => {
    const { token } = await sentOnboarding(service, tenant, { send: { pin: PIN } });
    const at = nextWindow([service]);
    for (let i = 0; i < PIN_FAILURE_LIMIT; i++) {
      expect((await portal(service, token, 'GET', '', { pin: WRONG(i) })).status).toBe(401);
    }
    await expectLocked(service, token);

    await stop(service);
    service = await startOnDatabase();
    service.clock.set(new Date(at.getTime() + 60_000));
    await expectLocked(service, token);

    service.clock.set(new Date(at.getTime() + PIN_FAILURE_WINDOW_SECONDS * 1000));
    expect((await portal(service, token, 'GET', '', { pin: PIN })).status).toBe(200);
  });
});

describe('Redis (REDIS_URL): two instances, then a restart of both', () => {
  let redis: TestRedis;
  let a: TestService;
  let b: TestService;
  let tenant: Tenant;
  let env: Record<string, string>;
  /** The instance running after the restart. */
  let current: TestService;

  beforeAll(async () => {
    redis = await startTestRedis();
    env = { REDIS_URL: redis.url };
    a = await startOnDatabase(env);
    b = await startOnDatabase(env, a);
    tenant = await createTenant(a);
  });
  afterAll(async () => {
    for (const service of [b, a]) if (service && running.includes(service)) await stop(service);
    await redis?.stop();
  });

  it(`${BURST} wrong PINs and the right one at once, split over both instances: the right one is refused, on both`, async () => {
    const { token } = await sentOnboarding(a, tenant, { send: { pin: PIN } });
    nextWindow([a, b]);
    expectLockedOut(await burst([a, b], token));
    await expectLocked(a, token);
    await expectLocked(b, token);
  });

  it('wrong PINs on one instance lock the link on the other; it stays locked after both restart', async () => {
    const { token } = await sentOnboarding(a, tenant, { send: { pin: PIN } });
    const at = nextWindow([a, b]);
    for (let i = 0; i < PIN_FAILURE_LIMIT; i++) {
      expect((await portal(i % 2 === 0 ? a : b, token, 'GET', '', { pin: WRONG(i) })).status).toBe(401);
    }
    await expectLocked(b, token);

    await stop(b);
    await stop(a);
    // The counters are Redis's, not the database's: the restarted service finds them there.
    const key = `portal_pin_attempts:${hashClientToken(token)}`;
    expect(
      (await database.pool.query('select 1 from rate_limit_counters where key = $1', [key])).rowCount,
    ).toBe(0);
    const restarted = await startOnDatabase(env);
    current = restarted;
    restarted.clock.set(new Date(at.getTime() + 60_000));
    await expectLocked(restarted, token);
    restarted.clock.set(new Date(at.getTime() + PIN_FAILURE_WINDOW_SECONDS * 1000));
    expect((await portal(restarted, token, 'GET', '', { pin: PIN })).status).toBe(200);
  });

  it('Redis down: a PIN is refused with 503 (never checked without its limit); a live link session keeps working', async () => {
    const { token } = await sentOnboarding(current, tenant, { send: { pin: PIN } });
    nextWindow([current]);
    const opened = await portal(current, token, 'POST', '/session', { pin: PIN });
    expect(opened.status).toBe(200);
    const cookie = opened.headers.getSetCookie()[0]!.split(';')[0]!;
    registerSecrets(cookie.split('=')[1]);
    await redis.stop();
    const before = pinHashRuns();
    const refused = await portal(current, token, 'GET', '', { pin: PIN });
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('service_unavailable');
    expect(pinHashRuns()).toBe(before);
    expect((await portal(current, token, 'GET', '', { headers: { cookie } })).status).toBe(200);
    const face = await portal(current, token, 'GET', '/face', { headers: { cookie } });
    expect(face.status).toBe(200);
    expect(face.body.link).toEqual({ state: 'pin_required', retry_after_seconds: null, session: true });
  });
});
