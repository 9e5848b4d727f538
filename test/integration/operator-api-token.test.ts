/**
 * The operator API's token (operator-and-portal-api.md): every /admin/v1 route answers
 * 404 while ADMIN_TOKEN is unset, and 401 admin_token_invalid for a missing or wrong
 * token. The routes are taken from the app, so later operator routes are covered too.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../shared/http/route-registry.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { request } from '../helpers/tenant.ts';

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
      for (const authorization of [undefined, 'Bearer test-admin-token', 'Bearer ']) {
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
      for (const authorization of [
        undefined,
        'Bearer wrong-token',
        'Bearer test-admin-token-x',
        'test-admin-token',
        'Basic test-admin-token',
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
      headers: { authorization: 'bearer test-admin-token' },
      body: { name: 'A', plan: 'pro' },
    });
    expect(answer.status).toBe(201);
  });

  it('does not accept an API key as the admin token', async () => {
    const team = await request(service, 'POST', '/admin/v1/teams', {
      headers: { authorization: 'Bearer test-admin-token' },
      body: { name: 'A', plan: 'pro' },
    });
    const key = await request(service, 'POST', `/admin/v1/teams/${team.body.team.id}/api-keys`, {
      headers: { authorization: 'Bearer test-admin-token' },
      body: { scopes: ['clients:read'] },
    });
    const answer = await request(service, 'POST', '/admin/v1/teams', {
      headers: { authorization: `Bearer ${key.body.secret}` },
      body: { name: 'B', plan: 'pro' },
    });
    expect(answer.status).toBe(401);
  });
});
