/**
 * The operator API's token (operator-and-portal-api.md): every /admin/v1 route answers
 * 404 while ADMIN_TOKEN is unset, and 401 admin_token_invalid for a missing or wrong
 * token. The routes are taken from the app, so later operator routes are covered too.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../../shared/http/route-registry.ts';
import {
  ADMIN_TOKEN_GUESS_LIMIT,
  ADMIN_TOKEN_GUESS_WINDOW_SECONDS,
} from '../../../services/access/operator-auth.ts';
import { alignClockToWindow } from '../../helpers/clock-windows.ts';
import { startTestRedis } from '../../helpers/redis-server.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../helpers/service.ts';
import { request } from '../../helpers/tenant.ts';

function operatorRoutes(service: TestService) {
  const routes = registeredRoutes(service.app)
    .filter((route) => route.url.startsWith('/admin/v1/') && route.method !== 'HEAD')
    .map((route) => ({ method: route.method, path: route.url.replace(/:[A-Za-z_]+/g, () => randomUUID()) }));
  expect(routes.length).toBeGreaterThanOrEqual(8);
  return routes;
}

const bodyFor = (method: string) => (['POST', 'PATCH', 'PUT'].includes(method) ? {} : undefined);

describe('without ADMIN_TOKEN', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ ADMIN_TOKEN: '' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('answers 404 on every operator route, exactly as on an unknown path, with or without a token', async () => {
    const unknown = await request(service, 'GET', '/admin/v1/no-such-route');
    expect(unknown.status).toBe(404);
    const shape = { ...unknown.body, request_id: expect.any(String) };
    for (const { method, path } of operatorRoutes(service)) {
      for (const authorization of [undefined, 'Bearer test-admin-token-of-the-operator-api', 'Bearer ']) {
        const answer = await request(service, method, path, {
          headers: authorization ? { authorization } : {},
          body: bodyFor(method),
        });
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.body).toEqual(shape);
      }
    }
  });

  it('lists the documented operator routes', () => {
    const names = registeredRoutes(service.app).map((route) => `${route.method} ${route.url}`);
    for (const route of [
      'POST /admin/v1/teams',
      'PATCH /admin/v1/teams/:team_id',
      'POST /admin/v1/teams/:team_id/members',
      'DELETE /admin/v1/teams/:team_id/members/:member_id',
      'POST /admin/v1/teams/:team_id/api-keys',
      'DELETE /admin/v1/teams/:team_id/api-keys/:key_id',
      'POST /admin/v1/teams/:team_id/templates',
      'DELETE /admin/v1/teams/:team_id/templates/:template_id',
      'POST /admin/v1/gallery-templates',
    ]) {
      expect(names).toContain(route);
    }
  });
});

describe('with ADMIN_TOKEN', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('answers 401 admin_token_invalid on every operator route for a missing or wrong token', async () => {
    for (const { method, path } of operatorRoutes(service)) {
      // A fresh window of the guess limit for each route (wrong tokens count per IP).
      alignClockToWindow(service.clock, ADMIN_TOKEN_GUESS_WINDOW_SECONDS);
      for (const authorization of [
        undefined,
        'Bearer wrong-token',
        'Bearer test-admin-token-of-the-operator-api-x',
        'test-admin-token-of-the-operator-api',
        'Basic test-admin-token-of-the-operator-api',
      ]) {
        const answer = await request(service, method, path, {
          headers: authorization ? { authorization } : {},
          body: bodyFor(method),
        });
        expect(answer.status, `${method} ${path} ${authorization}`).toBe(401);
        expect(answer.body).toEqual({
          error: 'Invalid or missing admin token',
          code: 'admin_token_invalid',
          message: 'Invalid or missing admin token',
          retryable: false,
          request_id: answer.headers.get('x-request-id'),
        });
      }
    }
  });

  it('accepts the token with any case of Bearer', async () => {
    const answer = await request(service, 'POST', '/admin/v1/teams', {
      headers: { authorization: 'bearer test-admin-token-of-the-operator-api' },
      body: { name: 'A', plan: 'pro' },
    });
    expect(answer.status).toBe(201);
  });

  it('does not accept an API key as the admin token', async () => {
    const team = await request(service, 'POST', '/admin/v1/teams', {
      headers: { authorization: 'Bearer test-admin-token-of-the-operator-api' },
      body: { name: 'A', plan: 'pro' },
    });
    const key = await request(service, 'POST', `/admin/v1/teams/${team.body.team.id}/api-keys`, {
      headers: { authorization: 'Bearer test-admin-token-of-the-operator-api' },
      body: { scopes: ['clients:read'] },
    });
    const answer = await request(service, 'POST', '/admin/v1/teams', {
      headers: { authorization: `Bearer ${key.body.secret}` },
      body: { name: 'B', plan: 'pro' },
    });
    expect(answer.status).toBe(401);
  });
});

/** An operator route behind the token check (an unknown onboarding: 404 with the right token). */
const GUARDED = `/admin/v1/onboardings/${randomUUID()}/link`;

/** `count` wrong Bearer tokens and then the right one, all sent at once (the right one last). */
async function burstThenRight(service: TestService, count: number) {
  const send = (token: string) =>
    request(service, 'POST', '/admin/v1/teams', {
      headers: { authorization: `Bearer ${token}` },
      body: { name: 'Guessed', plan: 'pro' },
    });
  const answers = await Promise.all([
    ...Array.from({ length: count }, (_, index) => send(`wrong-admin-token-guess-number-${index}`)),
    send(ADMIN_TOKEN),
  ]);
  return { wrong: answers.slice(0, count), right: answers[count]! };
}

describe('ADMIN_TOKEN guesses', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it(`${ADMIN_TOKEN_GUESS_LIMIT + 10} wrong tokens and then the right one at once: the right one is refused with 429 and Retry-After`, async () => {
    alignClockToWindow(service.clock, ADMIN_TOKEN_GUESS_WINDOW_SECONDS);
    const { wrong, right } = await burstThenRight(service, ADMIN_TOKEN_GUESS_LIMIT + 10);
    const statuses = wrong.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(ADMIN_TOKEN_GUESS_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    expect(right.status).toBe(429);
    expect(right.body).toEqual({
      error: expect.stringMatching(
        /^Too many wrong admin tokens from your address\. Try again in 1[45] minutes\.$/,
      ),
      code: 'admin_token_rate_limited',
      message: right.body.error,
      retryable: true,
      request_id: right.headers.get('x-request-id'),
    });
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(Number(right.headers.get('retry-after'))).toBeLessThanOrEqual(ADMIN_TOKEN_GUESS_WINDOW_SECONDS);
    const { rows } = await service.context.pool.query(`select 1 from teams where name = 'Guessed'`);
    expect(rows).toHaveLength(0);

    // Refused until the window ends, then the right token works again.
    const later = await request(service, 'GET', GUARDED, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(later.status).toBe(429);
    alignClockToWindow(service.clock, ADMIN_TOKEN_GUESS_WINDOW_SECONDS);
    const team = await request(service, 'POST', '/admin/v1/teams', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { name: 'After the window', plan: 'pro' },
    });
    expect(team.status).toBe(201);
  });

  it('right tokens give their guess back: many more than the limit in a row all pass', async () => {
    alignClockToWindow(service.clock, ADMIN_TOKEN_GUESS_WINDOW_SECONDS);
    for (let batch = 0; batch < 4; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          request(service, 'GET', GUARDED, {
            headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          }),
        ),
      );
      expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([404]));
    }
  });
});

describe('ADMIN_TOKEN guesses with Redis (two instances)', () => {
  it('count across both instances; while Redis is down a Bearer token is refused 503, never checked unlimited', async () => {
    const redis = await startTestRedis();
    const a = await startTestService({ REDIS_URL: redis.url });
    const b = await startTestService({ REDIS_URL: redis.url }, { sharedWith: a });
    try {
      alignClockToWindow(a.clock, ADMIN_TOKEN_GUESS_WINDOW_SECONDS);
      b.clock.set(a.clock.now());
      const wrong = (service: TestService, index: number) =>
        request(service, 'GET', GUARDED, {
          headers: { authorization: `Bearer wrong-admin-token-${index}` },
        });
      const half = ADMIN_TOKEN_GUESS_LIMIT / 2;
      const first = await Promise.all(Array.from({ length: half }, (_, index) => wrong(a, index)));
      const second = await Promise.all(Array.from({ length: half }, (_, index) => wrong(b, index)));
      expect(new Set([...first, ...second].map((answer) => answer.status))).toEqual(new Set([401]));
      const right = await request(a, 'GET', GUARDED, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(right.status).toBe(429);
      expect(right.body.code).toBe('admin_token_rate_limited');

      await redis.stop();
      const down = await request(b, 'GET', GUARDED, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(down.status).toBe(503);
      expect(down.body.code).toBe('service_unavailable');
      expect(down.headers.get('retry-after')).toBe('1');
    } finally {
      await b.stop();
      await a.stop();
      await redis.stop().catch(() => undefined);
    }
  });
});
