/**
 * client-onboarding-api.md, Limits: rate limits over real HTTP. Windows are fixed 60
 * seconds on the service clock; the tests move the ManualClock instead of sleeping.
 */
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handleError } from '../../../shared/http/error-handler.ts';
import { publicApi } from '../../../services/app/apis/public.ts';
import type { RateLimitStore } from '../../../shared/rate-limit/rate-limiter.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  apiRequest,
  createApiKey,
  createTeamWithKey,
  request,
  type HttpAnswer,
} from '../../helpers/tenant.ts';

/** Puts the clock `seconds` into the next minute (a fresh window for every counter). */
function startNextWindow(service: TestService, seconds: number): void {
  const now = service.clock.now().getTime();
  service.clock.set(new Date(Math.floor(now / 60_000) * 60_000 + 60_000 + seconds * 1000));
}

/** `count` requests, a few at a time; returns their statuses. */
async function burst(count: number, send: () => Promise<HttpAnswer>): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += 25) {
    const batch = await Promise.all(Array.from({ length: Math.min(25, count - sent) }, send));
    statuses.push(...batch.map((answer) => answer.status));
  }
  return statuses;
}

const fromIp = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

function expectRateLimited(answer: HttpAnswer, retryAfter: number): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toStrictEqual({ error: expect.any(String), code: 'rate_limited' });
  expect(answer.headers.get('retry-after')).toBe(String(retryAfter));
  expect(answer.headers.get('x-request-id')).toBeNull();
}

describe('with TRUST_PROXY on (client IP from X-Forwarded-For)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ TRUST_PROXY: 'on' });
  });
  afterAll(async () => {
    await service?.stop();
  });
  beforeEach(() => startNextWindow(service, 10));

  it('allows 100 requests per minute per IP address, then 429 until the window resets', async () => {
    const { apiKey } = await createTeamWithKey(service);
    const me = () => apiRequest(service, apiKey, 'GET', '/me', fromIp('203.0.113.1'));
    expect(new Set(await burst(100, me))).toEqual(new Set([200]));
    expectRateLimited(await me(), 50);
    service.clock.advance(30);
    expectRateLimited(await me(), 20);
    service.clock.advance(19.5);
    expectRateLimited(await me(), 1);
    service.clock.advance(0.5);
    expect((await me()).status).toBe(200);
  });

  it('counts the IP limit before the key: requests without a key count, and the 101st is 429, not 401', async () => {
    const { apiKey } = await createTeamWithKey(service);
    const anonymous = () => request(service, 'GET', '/api/v1/me', fromIp('203.0.113.2'));
    expect(new Set(await burst(100, anonymous))).toEqual(new Set([401]));
    expectRateLimited(await anonymous(), 50);
    expectRateLimited(await apiRequest(service, apiKey, 'GET', '/me', fromIp('203.0.113.2')), 50);
    expectRateLimited(await apiRequest(service, 'cos_unknown', 'GET', '/me', fromIp('203.0.113.2')), 50);
    // Another address is not affected.
    expect((await apiRequest(service, apiKey, 'GET', '/me', fromIp('203.0.113.3'))).status).toBe(200);
  });

  it('allows 200 requests per minute per key (plans other than Business)', async () => {
    const { teamId, apiKey } = await createTeamWithKey(service, { plan: 'pro' });
    for (const ip of ['198.51.100.1', '198.51.100.2']) {
      expect(new Set(await burst(100, () => apiRequest(service, apiKey, 'GET', '/me', fromIp(ip))))).toEqual(
        new Set([200]),
      );
    }
    expectRateLimited(await apiRequest(service, apiKey, 'GET', '/me', fromIp('198.51.100.3')), 50);
    // The limit is per key: another key of the same team, from the same address, works.
    const other = await createApiKey(service, teamId, ['clients:read']);
    expect((await apiRequest(service, other.apiKey, 'GET', '/me', fromIp('198.51.100.3'))).status).toBe(200);
    service.clock.advance(50);
    expect((await apiRequest(service, apiKey, 'GET', '/me', fromIp('198.51.100.3'))).status).toBe(200);
  });

  it('allows 1,000 requests per minute per key on Business', { timeout: 120_000 }, async () => {
    const { apiKey } = await createTeamWithKey(service, { plan: 'business' });
    for (let i = 1; i <= 10; i++) {
      const statuses = await burst(100, () =>
        apiRequest(service, apiKey, 'GET', '/me', fromIp(`192.0.2.${i}`)),
      );
      expect(new Set(statuses)).toEqual(new Set([200]));
    }
    expectRateLimited(await apiRequest(service, apiKey, 'GET', '/me', fromIp('192.0.2.11')), 50);
  });

  it('does not limit the operator API', async () => {
    const statuses = await burst(120, () =>
      request(service, 'POST', '/admin/v1/teams', {
        headers: {
          authorization: 'Bearer test-admin-token-of-the-operator-api',
          ...fromIp('203.0.113.50').headers,
        },
        body: { name: 'x', plan: 'free' },
      }),
    );
    expect(new Set(statuses)).toEqual(new Set([201]));
  });
});

describe('with TRUST_PROXY off (default)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('ignores X-Forwarded-For: every request counts for the connecting address', async () => {
    startNextWindow(service, 0);
    const { apiKey } = await createTeamWithKey(service);
    let n = 0;
    const statuses = await burst(100, () =>
      apiRequest(service, apiKey, 'GET', '/me', fromIp(`10.0.0.${++n}`)),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
    expectRateLimited(await apiRequest(service, apiKey, 'GET', '/me', fromIp('10.1.1.1')), 60);
  });
});

describe('with RATE_LIMITS=off', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ RATE_LIMITS: 'off' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('never answers 429', async () => {
    const { apiKey } = await createTeamWithKey(service);
    const statuses = await burst(250, () => apiRequest(service, apiKey, 'GET', '/me'));
    expect(new Set(statuses)).toEqual(new Set([200]));
    const anonymous = await burst(150, () => request(service, 'GET', '/api/v1/me'));
    expect(new Set(anonymous)).toEqual(new Set([401]));
  });
});

describe('per key and IP address (100; Business 500)', () => {
  // Over HTTP the per-IP limit (100) always comes first, so these limits are checked with
  // the public API plugin over a store whose counters start high.
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  class SeededStore implements RateLimitStore {
    readonly seen: string[] = [];
    private readonly counts = new Map<string, number>();
    constructor(private readonly seed: (key: string) => number) {}
    async increment(key: string): Promise<number> {
      this.seen.push(key);
      const count = (this.counts.get(key) ?? this.seed(key)) + 1;
      this.counts.set(key, count);
      return count;
    }
    async decrement(key: string): Promise<number> {
      const count = Math.max(0, (this.counts.get(key) ?? this.seed(key)) - 1);
      this.counts.set(key, count);
      return count;
    }
    async clear(key: string): Promise<void> {
      this.counts.set(key, 0);
    }
    async peek(key: string): Promise<number> {
      return this.counts.get(key) ?? this.seed(key);
    }
  }

  async function appWith(store: RateLimitStore) {
    const app = Fastify({ trustProxy: true });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.setErrorHandler(handleError);
    await app.register(publicApi, { prefix: '/api/v1', context: service.context, rateLimitStore: store });
    return app;
  }

  it.each([
    ['pro', 99],
    ['business', 499],
  ] as const)('refuses the request after the per key and IP cap on %s', async (plan, seeded) => {
    startNextWindow(service, 0);
    const { apiKey, apiKeyId } = await createTeamWithKey(service, { plan });
    const store = new SeededStore((key) => (key.startsWith('key_ip:') ? seeded : 0));
    const app = await appWith(store);
    const me = () =>
      app.inject({
        url: '/api/v1/me',
        headers: { authorization: `Bearer ${apiKey}`, 'x-forwarded-for': '192.0.2.77' },
      });
    expect((await me()).statusCode).toBe(200);
    const refused = await me();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toStrictEqual({ error: expect.any(String), code: 'rate_limited' });
    expect(refused.headers['retry-after']).toBe('60');
    expect(store.seen.slice(0, 3)).toEqual([
      `ip:192.0.2.77`,
      `key:${apiKeyId}`,
      `key_ip:${apiKeyId}:192.0.2.77`,
    ]);
    await app.close();
  });
});
