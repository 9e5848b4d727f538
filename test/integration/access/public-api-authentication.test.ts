/**
 * client-onboarding-api.md, Authentication: every status and code over real HTTP.
 * Rate limits are off here (one clock window for the whole file); they have their own file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../../services/access/contract/scopes.ts';
import { PLANS } from '../../../services/access/contract/plans.ts';
import { addPublicTestRoutes } from '../../helpers/public-test-routes.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  adminRequest,
  apiRequest,
  createApiKey,
  createTeam,
  createTeamWithKey,
  request,
  revokeApiKey,
  updateTeam,
} from '../../helpers/tenant.ts';

let service: TestService;
beforeAll(async () => {
  addPublicTestRoutes();
  service = await startTestService({ RATE_LIMITS: 'off' });
});
afterAll(async () => {
  await service?.stop();
});

/** A full error body (Errors: key checks) with its X-Request-Id header. */
function expectKeyError(
  answer: { status: number; headers: Headers; body: any },
  status: number,
  code: string,
): void {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({
    error: expect.any(String),
    code,
    message: expect.any(String),
    retryable: false,
    request_id: expect.any(String),
    // A failed validation names where it failed, beside the spec's unchanged text.
    ...(code === 'invalid_body'
      ? {
          details: {
            issues: expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]),
          },
        }
      : {}),
  });
  expect(answer.headers.get('x-request-id')).toBe(answer.body.request_id);
}

describe('401 api_key_required', () => {
  it('answers a request without Authorization', async () => {
    const answer = await request(service, 'GET', '/api/v1/me');
    expectKeyError(answer, 401, 'api_key_required');
  });

  it.each([['Basic dXNlcjpwYXNz'], ['Bearer'], ['Bearer    '], ['']])(
    'answers Authorization %j (no bearer key)',
    async (header) => {
      const answer = await request(service, 'GET', '/api/v1/me', { headers: { authorization: header } });
      expectKeyError(answer, 401, 'api_key_required');
    },
  );
});

describe('401 api_key_inactive', () => {
  it('answers an unknown key', async () => {
    expectKeyError(await apiRequest(service, 'cos_not-a-real-key', 'GET', '/me'), 401, 'api_key_inactive');
  });

  it('answers a key revoked one request earlier', async () => {
    const { teamId, apiKey, apiKeyId } = await createTeamWithKey(service);
    expect((await apiRequest(service, apiKey, 'GET', '/me')).status).toBe(200);
    await revokeApiKey(service, teamId, apiKeyId);
    expectKeyError(await apiRequest(service, apiKey, 'GET', '/me'), 401, 'api_key_inactive');
  });

  it('keeps other keys of the team working after one is revoked', async () => {
    const { teamId, apiKey, apiKeyId } = await createTeamWithKey(service);
    const other = await createApiKey(service, teamId, ['clients:read']);
    await revokeApiKey(service, teamId, apiKeyId);
    expect((await apiRequest(service, apiKey, 'GET', '/me')).status).toBe(401);
    expect((await apiRequest(service, other.apiKey, 'GET', '/me')).status).toBe(200);
  });

  it('answers a key from the first instant after the end of its expiry date (UTC, service clock)', async () => {
    service.clock.set(new Date('2031-03-10T08:00:00.000Z'));
    const team = await createTeam(service);
    const key = await createApiKey(service, team.id, ['clients:read'], { expires_on: '2031-03-10' });
    expect(key.api_key.expires_at).toBe('2031-03-10T23:59:59.999Z');
    expect((await apiRequest(service, key.apiKey, 'GET', '/me')).status).toBe(200);
    service.clock.set(new Date('2031-03-10T23:59:59.999Z'));
    expect((await apiRequest(service, key.apiKey, 'GET', '/me')).status).toBe(200);
    service.clock.set(new Date('2031-03-11T00:00:00.000Z'));
    expectKeyError(await apiRequest(service, key.apiKey, 'GET', '/me'), 401, 'api_key_inactive');
  });

  it('checks the key before the plan: a revoked key of a plan without API access is 401', async () => {
    const { teamId, apiKey, apiKeyId } = await createTeamWithKey(service, { plan: 'free' });
    await revokeApiKey(service, teamId, apiKeyId);
    expectKeyError(await apiRequest(service, apiKey, 'GET', '/me'), 401, 'api_key_inactive');
  });
});

describe('403 api_key_plan_required', () => {
  const withoutAccess = ['free', 'starter', 'solo', 'lifetime_solo'] as const;
  const withAccess = ['pro', 'pro_trial', 'business', 'practice', 'firm'] as const;

  it('covers every plan', () => {
    expect([...withoutAccess, ...withAccess].sort()).toEqual([...PLANS].sort());
  });

  it.each(withoutAccess)('refuses a key of a %s team', async (plan) => {
    const { apiKey } = await createTeamWithKey(service, { plan });
    expectKeyError(await apiRequest(service, apiKey, 'GET', '/me'), 403, 'api_key_plan_required');
    expectKeyError(
      await apiRequest(service, apiKey, 'GET', '/__test/test-clients'),
      403,
      'api_key_plan_required',
    );
  });

  it.each(withAccess)('accepts a key of a %s team', async (plan) => {
    const { apiKey } = await createTeamWithKey(service, { plan });
    const answer = await apiRequest(service, apiKey, 'GET', '/me');
    expect(answer.status).toBe(200);
    expect(answer.body.team.tier).toBe(plan);
  });

  it('follows plan changes from the next request', async () => {
    const { teamId, apiKey } = await createTeamWithKey(service, { plan: 'pro' });
    await updateTeam(service, teamId, { plan: 'starter' });
    expectKeyError(await apiRequest(service, apiKey, 'GET', '/me'), 403, 'api_key_plan_required');
    await updateTeam(service, teamId, { plan: 'firm' });
    expect((await apiRequest(service, apiKey, 'GET', '/me')).status).toBe(200);
  });
});

describe('403 api_key_scope_denied', () => {
  it('refuses a route outside the key scopes and allows the one it has', async () => {
    const { apiKey } = await createTeamWithKey(service, { scopes: ['clients:read'] });
    expect((await apiRequest(service, apiKey, 'GET', '/__test/test-clients')).status).toBe(200);
    const denied = await apiRequest(service, apiKey, 'POST', '/__test/test-clients', { body: { name: 'A' } });
    expectKeyError(denied, 403, 'api_key_scope_denied');
    expect(denied.body.error).toContain('clients:write');
  });

  it('grants nothing for templates:write, but GET /me works with it', async () => {
    const { apiKey } = await createTeamWithKey(service, { scopes: ['templates:write'] });
    expect((await apiRequest(service, apiKey, 'GET', '/me')).status).toBe(200);
    expectKeyError(
      await apiRequest(service, apiKey, 'GET', '/__test/test-clients'),
      403,
      'api_key_scope_denied',
    );
    const onboarding = await apiRequest(service, apiKey, 'POST', '/__test/test-onboardings', {
      body: { client_id: '5b3b1d8e-4a7c-4f0e-9a55-3c1c1a2b3c4d' },
    });
    expectKeyError(onboarding, 403, 'api_key_scope_denied');
  });

  it('checks the scope before validating the request, except on onboarding endpoints', async () => {
    const { apiKey } = await createTeamWithKey(service, { scopes: ['clients:read'] });
    // clients: scope first, so a malformed body still gets 403.
    const clients = await apiRequest(service, apiKey, 'POST', '/__test/test-clients', { body: { name: 42 } });
    expectKeyError(clients, 403, 'api_key_scope_denied');
    // onboardings: a malformed request is 400 invalid_body before the scope check ...
    const malformed = await apiRequest(service, apiKey, 'POST', '/__test/test-onboardings', {
      body: { client_id: 'nope' },
    });
    expectKeyError(malformed, 400, 'invalid_body');
    const badQuery = await apiRequest(service, apiKey, 'POST', '/__test/test-onboardings?limit=0', {
      body: { client_id: '5b3b1d8e-4a7c-4f0e-9a55-3c1c1a2b3c4d' },
    });
    expectKeyError(badQuery, 400, 'invalid_body');
    // ... and a well-formed one is 403.
    const wellFormed = await apiRequest(service, apiKey, 'POST', '/__test/test-onboardings', {
      body: { client_id: '5b3b1d8e-4a7c-4f0e-9a55-3c1c1a2b3c4d' },
    });
    expectKeyError(wellFormed, 403, 'api_key_scope_denied');
  });

  it('lets a key with the scope through on onboarding endpoints', async () => {
    const { apiKey } = await createTeamWithKey(service, { scopes: ['onboardings:write'] });
    const answer = await apiRequest(service, apiKey, 'POST', '/__test/test-onboardings', {
      body: { client_id: '5b3b1d8e-4a7c-4f0e-9a55-3c1c1a2b3c4d' },
    });
    expect(answer.status).toBe(201);
  });
});

describe('GET /api/v1/me', () => {
  const everyScope: Scope[] = [
    'clients:read',
    'clients:write',
    'onboardings:read',
    'onboardings:write',
    'templates:read',
    'templates:write',
    'responses:read',
    'events:read',
    'webhooks:write',
  ];

  it.each(everyScope)('works with a key holding only %s', async (scope) => {
    const { apiKey, teamId, team } = await createTeamWithKey(service, { scopes: [scope] });
    const answer = await apiRequest(service, apiKey, 'GET', '/me');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      team: { id: teamId, name: team.name, tier: 'pro' },
      limits: { onboardings_per_month: 100, api_rate_limit: '200 requests per minute' },
    });
    expect(answer.headers.get('x-request-id')).toEqual(expect.any(String));
  });

  it('answers unlimited for business and honours the monthly override of the team', async () => {
    const { apiKey, teamId } = await createTeamWithKey(service, { plan: 'business' });
    const me = async () => (await apiRequest(service, apiKey, 'GET', '/me')).body.limits;
    expect(await me()).toEqual({
      onboardings_per_month: 'unlimited',
      api_rate_limit: '1000 requests per minute',
    });
    await updateTeam(service, teamId, { monthly_onboarding_limit: 40 });
    expect((await me()).onboardings_per_month).toBe(40);
    await updateTeam(service, teamId, { plan: 'pro_trial', monthly_onboarding_limit: 'unlimited' });
    expect(await me()).toEqual({
      onboardings_per_month: 'unlimited',
      api_rate_limit: '200 requests per minute',
    });
    await updateTeam(service, teamId, { monthly_onboarding_limit: null });
    expect((await me()).onboardings_per_month).toBe(25);
  });

  it("answers the key's own team", async () => {
    const a = await createTeamWithKey(service, { name: 'Team A' });
    const b = await createTeamWithKey(service, { name: 'Team B' });
    expect((await apiRequest(service, a.apiKey, 'GET', '/me')).body.team).toMatchObject({
      id: a.teamId,
      name: 'Team A',
    });
    expect((await apiRequest(service, b.apiKey, 'GET', '/me')).body.team).toMatchObject({
      id: b.teamId,
      name: 'Team B',
    });
  });

  it('does not accept the admin token as an API key', async () => {
    const answer = await request(service, 'GET', '/api/v1/me', {
      headers: { authorization: 'Bearer test-admin-token-of-the-operator-api' },
    });
    expectKeyError(answer, 401, 'api_key_inactive');
    expect((await adminRequest(service, 'GET', '/me')).status).toBe(404);
  });
});
