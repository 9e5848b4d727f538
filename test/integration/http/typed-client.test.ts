/**
 * The typed client generated from GET /openapi.json (services/web/shared/api/openapi.d.ts, through
 * openapi-typescript) drives the real service with openapi-fetch: the operator provisions
 * a team, a key and a template; the public API creates a client, finds it, makes an
 * onboarding, sends it; the portal opens the link and completes it; the public API then
 * reads the answers. Each call is typed by the document, so a change of the routes that
 * the document does not follow fails to compile or fails here.
 */
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../../services/web/shared/api/openapi.d.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../helpers/service.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
});
afterAll(async () => {
  await service?.stop();
});

describe('the generated client', () => {
  it('walks from a new team to a completed onboarding', async () => {
    const admin = createClient<paths>({
      baseUrl: service.url,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const team = await admin.POST('/admin/v1/teams', { body: { name: 'Typed Accounting', plan: 'pro' } });
    expect(team.response.status).toBe(201);
    const teamId = team.data!.team.id;

    const key = await admin.POST('/admin/v1/teams/{team_id}/api-keys', {
      params: { path: { team_id: teamId } },
      body: {
        name: 'typed',
        scopes: ['clients:read', 'clients:write', 'onboardings:read', 'onboardings:write', 'responses:read'],
      },
    });
    expect(key.response.status).toBe(201);
    const template = await admin.POST('/admin/v1/teams/{team_id}/templates', {
      params: { path: { team_id: teamId } },
      body: {
        name: 'Welcome',
        steps: [
          {
            title: 'About you',
            sort_order: 1,
            fields: [{ type: 'short_text', label: 'Full name', sort_order: 1, is_required: true }],
          },
        ],
      },
    });
    expect(template.response.status).toBe(201);
    const step = template.data!.template.template_steps[0]!;
    const field = step.template_fields[0]!;

    const api = createClient<paths>({
      baseUrl: service.url,
      headers: { authorization: `Bearer ${key.data!.secret}` },
    });
    const created = await api.POST('/api/v1/clients', {
      body: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('ratelimit-policy')).toBeNull(); // RATE_LIMITS off: no policy applies
    const clientId = created.data!.client.id;

    const again = await api.POST('/api/v1/clients', { body: { name: 'Ada', email: 'ADA@example.com' } });
    expect(again.response.status).toBe(200);
    expect(again.data!.client.id).toBe(clientId);

    const found = await api.GET('/api/v1/clients', {
      params: { query: { email: 'ada@example.com', limit: 10 } },
    });
    expect(found.data!.total).toBe(1);
    expect(found.data!.clients.map((client) => client.id)).toEqual([clientId]);
    expect(
      (await api.GET('/api/v1/clients/{id}', { params: { path: { id: clientId } } })).data!.client.name,
    ).toBe('Ada Lovelace');

    const missing = await api.GET('/api/v1/clients/{id}', {
      params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
      headers: { 'X-Request-Id': 'typed-client-1' },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ error: 'Client not found' });
    expect(missing.response.headers.get('x-request-id')).toBe('typed-client-1');

    const onboarding = await api.POST('/api/v1/onboardings', {
      body: { template_id: template.data!.template.id, client_id: clientId },
      headers: { 'Idempotency-Key': 'typed-create-1' },
    });
    expect(onboarding.response.status).toBe(201);
    const onboardingId = onboarding.data!.onboarding.id;
    expect(onboarding.data!.onboarding.status).toBe('draft');
    const replay = await api.POST('/api/v1/onboardings', {
      body: { template_id: template.data!.template.id, client_id: clientId },
      headers: { 'Idempotency-Key': 'typed-create-1' },
    });
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data!.onboarding.id).toBe(onboardingId);

    const sent = await api.POST('/api/v1/onboardings/{id}/send', {
      params: { path: { id: onboardingId } },
      body: {},
    });
    expect(sent.response.status).toBe(200);
    expect(sent.data!.success).toBe(true);

    const link = await admin.GET('/admin/v1/onboardings/{onboarding_id}/link', {
      params: { path: { onboarding_id: onboardingId } },
    });
    const token = link.data!.token!;
    const portal = createClient<paths>({ baseUrl: service.url });
    const opened = await portal.GET('/portal/v1/onboardings/{token}', { params: { path: { token } } });
    expect(opened.data!.onboarding.status).toBe('in_progress');
    const saved = await portal.PUT('/portal/v1/onboardings/{token}/answers/{field_id}', {
      params: { path: { token, field_id: field.id } },
      body: { value: 'Ada Lovelace' },
    });
    expect(saved.response.status).toBe(200);
    const submitted = await portal.POST('/portal/v1/onboardings/{token}/steps/{step_id}/submit', {
      params: { path: { token, step_id: step.id } },
    });
    expect(submitted.data!.onboarding.status).toBe('completed');

    await admin.POST('/admin/v1/work/drain');
    const read = await api.GET('/api/v1/onboardings/{id}', { params: { path: { id: onboardingId } } });
    expect(read.data!.onboarding.status).toBe('completed');
    expect(read.data!.onboarding.progress_pct).toBe(100);
    const responses = await api.GET('/api/v1/responses', {
      params: { query: { onboarding_id: onboardingId } },
    });
    expect(responses.data!.total).toBe(1);
    expect(responses.data!.responses[0]!.value).toBe('Ada Lovelace');
  });
});
