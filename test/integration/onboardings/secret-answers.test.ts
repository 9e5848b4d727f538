import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../../shared/http/route-registry.ts';
import { noStoreSecretAnswers, SECRET_ANSWER, SECRET_PROPERTY } from '../../../shared/http/secret-answer.ts';
import { registerSecrets } from '../../helpers/run-log.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest, request } from '../../helpers/tenant.ts';
import { createClient, createTenant, type Tenant } from '../portal-fixtures.ts';
import { Browser, lastEmailTo, linkToken, signUp } from '../workspace-fixtures.ts';

/**
 * Answers that carry a secret are `Cache-Control: no-store` (shared/http/secret-answer.ts):
 * each route that answers one is called and its header read, and every documented route
 * whose answer has a property named like a secret must carry the marker, so a new one
 * cannot forget it.
 */

let service: TestService;
let tenant: Tenant;
let document: any;
const password = 'correct horse battery staple';

beforeAll(async () => {
  // With SMTP_URL (nothing listens there) the invitation link stays in the outbox and out of
  // the log, so the run's log scan can check the token this test registers.
  service = await startTestService({
    RATE_LIMITS: 'off',
    HOOK_TARGET_ALLOWLIST: '127.0.0.1,localhost',
    SMTP_URL: 'smtp://127.0.0.1:9',
  });
  tenant = await createTenant(service, { plan: 'pro' });
  document = (await request(service, 'GET', '/openapi.json')).body;
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

const HOOK_URL = 'https://127.0.0.1:9/secret-answers';

function expectNoStore(
  what: string,
  answer: { status: number; headers: Headers; body?: unknown },
  status: number,
) {
  expect([what, answer.status], JSON.stringify(answer.body)).toEqual([what, status]);
  expect([what, answer.headers.get('cache-control')]).toEqual([what, 'no-store']);
}

describe('Cache-Control: no-store on every answer that carries a secret', () => {
  it('operator API: a new API key, the hook signing secret, a webhook endpoint secret, a client link', async () => {
    const teamPath = `/teams/${tenant.teamId}`;
    const key = await adminRequest(service, 'POST', `${teamPath}/api-keys`, { scopes: ['clients:read'] });
    registerSecrets(key.body?.secret);
    expectNoStore('create API key', key, 201);

    const signing = await adminRequest(service, 'GET', `${teamPath}/hook-signing-secret`);
    registerSecrets(signing.body?.secret);
    expectNoStore('hook signing secret', signing, 200);
    const rotated = await adminRequest(service, 'POST', `${teamPath}/hook-signing-secret/rotate`);
    registerSecrets(rotated.body?.secret);
    expectNoStore('rotate hook signing secret', rotated, 200);

    const endpoint = await adminRequest(service, 'POST', `${teamPath}/webhook-endpoints`, {
      url: HOOK_URL,
      event_types: ['onboarding.sent'],
    });
    registerSecrets(endpoint.body?.secret);
    expectNoStore('create webhook endpoint', endpoint, 201);
    const rotatedEndpoint = await adminRequest(
      service,
      'POST',
      `${teamPath}/webhook-endpoints/${endpoint.body.endpoint.id}/rotate-secret`,
    );
    registerSecrets(rotatedEndpoint.body?.secret);
    expectNoStore('rotate webhook endpoint secret', rotatedEndpoint, 200);

    const client = await createClient(service, tenant);
    const created = await apiRequest(service, tenant.apiKey, 'POST', '/onboardings', {
      body: { template_id: tenant.template.id, client_id: client.id },
    });
    registerSecrets(created.body?.onboarding?.token);
    const link = await adminRequest(service, 'GET', `/onboardings/${created.body.onboarding.id}/link`);
    expectNoStore('operator link', link, 200);
  });

  it("public API: a new onboarding's client token; errors of the route too; other answers are not marked", async () => {
    const client = await createClient(service, tenant);
    const created = await apiRequest(service, tenant.apiKey, 'POST', '/onboardings', {
      body: { template_id: tenant.template.id, client_id: client.id },
    });
    registerSecrets(created.body?.onboarding?.token);
    expectNoStore('create onboarding', created, 201);
    const refused = await apiRequest(service, tenant.apiKey, 'POST', '/onboardings', { body: {} });
    expectNoStore('refused onboarding', refused, 400);

    const list = await apiRequest(service, tenant.apiKey, 'GET', '/clients');
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).not.toBe('no-store');
  });

  it('workspace: sign-in, the CSRF token, two-factor set-up, API keys, signing secrets, endpoints, invitations', async () => {
    const email = 'secret-answers-owner@example.com';
    await signUp(service, email, password, 'Secret answers');
    const owner = new Browser(service);
    const signIn = await owner.call('POST', '/workspace/v1/sessions', { email, password });
    expect(signIn.setCookie).toBeTruthy();
    expectNoStore('sign in', signIn, 200);
    expectNoStore('me (CSRF token)', await owner.call('GET', '/workspace/v1/me'), 200);

    expect((await owner.call('POST', '/workspace/v1/sessions/current/reauth', { password })).status).toBe(
      200,
    );
    const totp = await owner.call('POST', '/workspace/v1/me/totp');
    registerSecrets(totp.body?.secret);
    expectNoStore('two-factor set-up', totp, 200);

    const key = await owner.call(
      'POST',
      '/workspace/v1/api-keys',
      { name: 'Secret answers', scopes: ['clients:read'] },
      { 'idempotency-key': 'secret-answers-key' },
    );
    registerSecrets(key.body?.secret);
    expectNoStore('create API key', key, 201);
    const rotatedKey = await owner.call(
      'POST',
      `/workspace/v1/api-keys/${key.body.api_key.id}/rotate`,
      undefined,
      { 'idempotency-key': 'secret-answers-rotate' },
    );
    registerSecrets(rotatedKey.body?.secret);
    expectNoStore('rotate API key', rotatedKey, 201);

    expectNoStore('hook signing secret', await owner.call('GET', '/workspace/v1/hook-signing-secret'), 200);
    expectNoStore(
      'rotate hook signing secret',
      await owner.call('POST', '/workspace/v1/hook-signing-secret/rotate'),
      200,
    );
    const endpoint = await owner.call('POST', '/workspace/v1/webhook-endpoints', {
      url: HOOK_URL,
      event_types: ['onboarding.sent'],
    });
    expectNoStore('create webhook endpoint', endpoint, 201);
    expectNoStore(
      'rotate webhook endpoint secret',
      await owner.call('POST', `/workspace/v1/webhook-endpoints/${endpoint.body.endpoint.id}/rotate-secret`),
      200,
    );

    const invited = 'secret-answers-member@example.com';
    const invite = await owner.call('POST', '/workspace/v1/invitations', {
      email: invited,
      name: 'Member',
      role: 'member',
    });
    expect(invite.status, JSON.stringify(invite.body)).toBe(201);
    const token = linkToken(await lastEmailTo(service, invited));
    registerSecrets(token);
    const accepted = await new Browser(service).call('POST', `/workspace/v1/invitations/${token}/accept`, {
      name: 'Member',
      password,
    });
    expect(accepted.setCookie).toBeTruthy();
    expectNoStore('accept invitation (signed in)', accepted, 201);
  });
});

describe('the marker cannot be forgotten', () => {
  const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
  const toRouteUrl = (path: string) => path.replace(/\{([A-Za-z_]+)\}/g, ':$1');

  /** Property names anywhere in a JSON schema ($refs into the components followed). */
  function propertyNames(schema: any, names = new Set<string>(), seen = new Set<unknown>()): Set<string> {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return names;
    seen.add(schema);
    if (typeof schema.$ref === 'string') {
      propertyNames(document.components?.schemas?.[schema.$ref.split('/').pop()], names, seen);
    }
    for (const [name, inner] of Object.entries(schema.properties ?? {})) {
      names.add(name);
      propertyNames(inner, names, seen);
    }
    for (const key of ['items', 'additionalProperties']) propertyNames(schema[key], names, seen);
    for (const key of ['allOf', 'anyOf', 'oneOf'])
      for (const inner of schema[key] ?? []) propertyNames(inner, names, seen);
    return names;
  }

  /** Every documented operation whose success answer has a property named like a secret. */
  function secretCarrying(): { key: string; secrets: string[] }[] {
    return Object.entries<any>(document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).flatMap((method) => {
        const names = new Set<string>();
        for (const [status, answer] of Object.entries<any>(item[method].responses ?? {})) {
          if (status.startsWith('2')) propertyNames(answer.content?.['application/json']?.schema, names);
        }
        const secrets = [...names].filter((name) => SECRET_PROPERTY.test(name));
        return secrets.length > 0 ? [{ key: `${method.toUpperCase()} ${toRouteUrl(path)}`, secrets }] : [];
      }),
    );
  }

  it('finds the routes of today (the search is not blind)', () => {
    const found = secretCarrying().map(({ key }) => key);
    expect(found).toEqual(
      expect.arrayContaining([
        'POST /api/v1/onboardings',
        'POST /admin/v1/teams/:team_id/api-keys',
        'GET /admin/v1/onboardings/:onboarding_id/link',
        'GET /admin/v1/teams/:team_id/hook-signing-secret',
        'POST /admin/v1/teams/:team_id/webhook-endpoints',
        'POST /workspace/v1/sessions',
        'GET /workspace/v1/me',
        'POST /workspace/v1/me/totp',
        'POST /workspace/v1/api-keys',
        'POST /workspace/v1/api-keys/:key_id/rotate',
        'POST /workspace/v1/webhook-endpoints/:id/rotate-secret',
        'POST /workspace/v1/invitations/:token/accept',
      ]),
    );
    expect(SECRET_PROPERTY.test('status_code')).toBe(false);
    expect(SECRET_PROPERTY.test('pin_required')).toBe(false);
    expect(SECRET_PROPERTY.test('recovery_codes')).toBe(true);
  });

  it('every route whose answer has a property named like a secret is marked SECRET_ANSWER', () => {
    const routes = registeredRoutes(service.app);
    const unmarked = secretCarrying().filter(({ key }) => {
      const route = routes.find((candidate) => `${candidate.method} ${candidate.url}` === key);
      expect(route, key).toBeDefined();
      return route!.config?.secretAnswer !== true;
    });
    expect(unmarked).toEqual([]);
  });
});

describe('the hook (shared/http/secret-answer.ts)', () => {
  it('marks every answer of a marked route, errors too, and any answer that sets a cookie; nothing else', async () => {
    const app = Fastify();
    noStoreSecretAnswers(app);
    app.get('/marked', { config: SECRET_ANSWER }, async () => ({ secret: 's' }));
    app.get('/marked-fails', { config: SECRET_ANSWER }, async () => {
      throw new Error('refused');
    });
    app.get('/cookie', async (_request, reply) => reply.header('set-cookie', 'session=x; HttpOnly').send({}));
    app.get('/plain', async (_request, reply) => reply.header('cache-control', 'max-age=60').send({}));
    try {
      const header = async (url: string) =>
        (await app.inject({ method: 'GET', url })).headers['cache-control'] as string | undefined;
      expect(await header('/marked')).toBe('no-store');
      expect(await header('/marked-fails')).toBe('no-store');
      expect(await header('/cookie')).toBe('no-store');
      expect(await header('/plain')).toBe('max-age=60');
    } finally {
      await app.close();
    }
  });
});
