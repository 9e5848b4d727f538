/**
 * Two API instances on one database share what a client could otherwise play one against
 * the other with: rate-limit counters (in a real redis-server, REDIS_URL) and erasures of
 * personal-data keys (PostgreSQL LISTEN/NOTIFY).
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../shared/logging/logger.ts';
import { FAILURE_WINDOW_SECONDS } from '../../../services/access/workspace/sign-in-throttle.ts';
import { startTestRedis, type TestRedis } from '../../helpers/redis-server.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest, createTeamWithKey, type HttpAnswer, request } from '../../helpers/tenant.ts';

let redis: TestRedis;
let a: TestService;
let b: TestService;
const logLines: string[] = [];

const fromIp = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

/** Both clocks at `seconds` into the same fresh minute (and the same 15-minute window). */
function startNextWindow(seconds: number): void {
  const now = Math.max(a.clock.now().getTime(), b.clock.now().getTime());
  const windowMs = FAILURE_WINDOW_SECONDS * 1000;
  const at = new Date(Math.floor(now / windowMs) * windowMs + windowMs + seconds * 1000);
  a.clock.set(at);
  b.clock.set(at);
}

async function repeat(count: number, send: () => Promise<HttpAnswer>): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, count - sent) }, send));
    statuses.push(...batch.map((answer) => answer.status));
  }
  return statuses;
}

beforeAll(async () => {
  redis = await startTestRedis();
  const env = { TRUST_PROXY: 'on', RATE_LIMITS: 'on', REDIS_URL: redis.url };
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  a = await startTestService(env, { logger: createLogger('info', logStream) });
  b = await startTestService(env, { sharedWith: a });
});

afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await redis?.stop();
});

beforeEach(() => startNextWindow(10));

describe('rate limits across two instances (Redis)', () => {
  it('the per-key limit counts requests to both instances: the 201st gets 429 with Retry-After', async () => {
    const { apiKey } = await createTeamWithKey(a, { plan: 'pro' });
    const me = (service: TestService, ip: string) => () =>
      apiRequest(service, apiKey, 'GET', '/me', fromIp(ip));
    expect(new Set(await repeat(100, me(a, '198.51.100.11')))).toEqual(new Set([200]));
    expect(new Set(await repeat(100, me(b, '198.51.100.12')))).toEqual(new Set([200]));
    for (const service of [a, b]) {
      const refused = await me(service, '198.51.100.13')();
      expect(refused.status).toBe(429);
      expect(refused.body).toStrictEqual({ error: expect.any(String), code: 'rate_limited' });
      expect(refused.headers.get('retry-after')).toBe('50');
    }
  });

  it('the per-IP limit too, before the key (401 for 100 anonymous requests across both, then 429)', async () => {
    const anonymous = (service: TestService) => () =>
      request(service, 'GET', '/api/v1/me', fromIp('203.0.113.21'));
    expect(new Set(await repeat(60, anonymous(a)))).toEqual(new Set([401]));
    expect(new Set(await repeat(40, anonymous(b)))).toEqual(new Set([401]));
    const refused = await anonymous(a)();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('50');
  });

  it('the workspace sign-in throttle: wrong passwords on one instance slow the email down on the other', async () => {
    const signIn = (service: TestService, attempt: number) =>
      request(service, 'POST', '/workspace/v1/sessions', {
        body: { email: 'shared-throttle@example.com', password: `wrong password ${attempt}` },
        ...fromIp('192.0.2.31'),
      });
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await signIn(attempt % 2 === 0 ? b : a, attempt)).status, `attempt ${attempt}`).toBe(401);
    }
    const slowed = await signIn(b, 6);
    expect(slowed.status).toBe(429);
    expect(slowed.body.code).toBe('sign_in_slowed_down');
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('personal-data key cache across two instances (LISTEN/NOTIFY)', () => {
  it('an erasure on one instance stops the other from opening the data at once, without a TTL', async () => {
    const { teamId } = await createTeamWithKey(a);
    const subject = '0b1c2d3e-0000-4000-8000-00000000abcd';
    const sealed = await a.context.vault.seal(teamId, subject, 'Ada Lovelace');
    expect(await b.context.vault.open(sealed)).toBe('Ada Lovelace');
    expect(b.context.vault.peekCachedKey(subject)).toBeDefined();

    await a.context.vault.erase(subject);
    const deadline = Date.now() + 2000;
    while (b.context.vault.peekCachedKey(subject) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(b.context.vault.peekCachedKey(subject)).toBeUndefined();
    expect(await b.context.vault.open(sealed)).toBeNull();
  });
});

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('personal-data key cache when the notifications break', () => {
  it('caches no key while not listening; listens again by itself and follows erasures', async () => {
    const { teamId } = await createTeamWithKey(a);
    const subject = '0b1c2d3e-0000-4000-8000-00000000abce';
    const sealed = await a.context.vault.seal(teamId, subject, 'Grace Hopper');
    await a.database.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query = 'listen personal_data_erased'`,
    );
    await until(() => !b.context.vault.cachingKeys());
    expect(await b.context.vault.open(sealed)).toBe('Grace Hopper');
    expect(b.context.vault.peekCachedKey(subject)).toBeUndefined();

    await until(() => b.context.vault.cachingKeys());
    expect(await b.context.vault.open(sealed)).toBe('Grace Hopper');
    expect(b.context.vault.peekCachedKey(subject)).toBeDefined();
    await a.context.vault.erase(subject);
    await until(() => b.context.vault.peekCachedKey(subject) === undefined, 2000);
    expect(await b.context.vault.open(sealed)).toBeNull();
  });
});

describe('Redis down', () => {
  it('each instance counts in its own memory, with a warning, and answers requests', async () => {
    const { apiKey } = await createTeamWithKey(a, { plan: 'pro' });
    await redis.stop();
    const me = (service: TestService) => () =>
      apiRequest(service, apiKey, 'GET', '/me', fromIp('198.51.100.41'));
    // The per-key-and-IP limit (100) now holds per instance: 100 on each still pass.
    expect(new Set(await repeat(100, me(a)))).toEqual(new Set([200]));
    expect(new Set(await repeat(100, me(b)))).toEqual(new Set([200]));
    const refused = await me(a)();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('50');
    const warnings = logLines.filter((line) => line.includes('Redis does not answer'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!).level).toBe(40);
  });
});
