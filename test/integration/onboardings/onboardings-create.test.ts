import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashClientToken } from '../../../services/onboardings/link-secrets.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  apiRequest,
  createApiKey,
  createGalleryTemplate,
  createTeamWithKey,
  createTemplate,
  deleteTemplate,
} from '../../helpers/tenant.ts';
import {
  createClient,
  createOnboarding,
  createTenant,
  eraseClient,
  onboardingRequest,
  streamEvents,
  type Tenant,
} from '../onboardings-fixtures.ts';

let service: TestService;
let tenant: Tenant;

beforeAll(async () => {
  service = await startTestService();
  service.clock.set(new Date('2025-03-10T15:00:00.000Z'));
  tenant = await createTenant(service, { timezone: 'America/New_York' });
});
afterAll(async () => service?.stop());

const post = (body: unknown, key = tenant.apiKey) =>
  onboardingRequest(service, { apiKey: key }, 'POST', '', { body });

const fullError = (status: number, code: string) => ({
  error: expect.any(String),
  code,
  message: expect.any(String),
  retryable: false,
  request_id: expect.any(String),
});

describe('POST /api/v1/onboardings', () => {
  it('(new) -> draft: 201 with the spec fields and a 64-hex token stored only as a hash', async () => {
    const answer = await post({ template_id: tenant.templateId, client_id: tenant.clientId });
    expect(answer.status).toBe(201);
    const { onboarding } = answer.body;
    expect(Object.keys(onboarding).sort()).toEqual(
      [
        'id',
        'status',
        'progress_pct',
        'created_at',
        'due_date',
        'due_on',
        'due_timezone',
        'expires_at',
        'assigned_to',
        'token',
      ].sort(),
    );
    expect(onboarding).toMatchObject({
      status: 'draft',
      progress_pct: 0,
      created_at: '2025-03-10T15:00:00.000Z',
      due_date: null,
      due_on: null,
      due_timezone: null,
      expires_at: null,
      assigned_to: null,
    });
    expect(onboarding.token).toMatch(/^[0-9a-f]{64}$/);

    const events = await streamEvents(service, onboarding.id);
    expect(events.map((event) => event.type)).toEqual(['onboarding_created']);
    expect(JSON.stringify(events.map((event) => [event.data, event.metadata]))).not.toContain(
      onboarding.token,
    );
    expect(events[0]!.data.token_hash).toBe(hashClientToken(onboarding.token));
    const { rows } = await service.database.pool.query(
      'select token_hash from onboarding_links where onboarding_id = $1',
      [onboarding.id],
    );
    expect(rows).toEqual([{ token_hash: hashClientToken(onboarding.token) }]);

    // Not counted against the monthly limit; the token is returned on create only.
    const usage = await service.database.pool.query(
      'select * from onboarding_send_usage where onboarding_id = $1',
      [onboarding.id],
    );
    expect(usage.rowCount).toBe(0);
    const got = await onboardingRequest(service, tenant, 'GET', `/${onboarding.id}`);
    expect(got.body.onboarding.token).toBeUndefined();
  });

  it('every event records command id, request id, idempotency key and API key id', async () => {
    const answer = await post({ template_id: tenant.templateId, client_id: tenant.clientId });
    const [event] = await streamEvents(service, answer.body.onboarding.id);
    expect(event!.metadata).toMatchObject({
      command_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      request_id: answer.headers.get('x-request-id'),
      idempotency_key: null,
      api_key_id: tenant.apiKeyId,
    });
  });

  it('copies the template structure as template_snapshot', async () => {
    const onboarding = await createOnboarding(service, tenant);
    const got = await onboardingRequest(service, tenant, 'GET', `/${onboarding.id}`);
    const template = await apiRequest(service, tenant.apiKey, 'GET', `/templates/${tenant.templateId}`);
    const snapshot = got.body.onboarding.template_snapshot;
    expect(snapshot).toMatchObject({
      name: 'Tax intake',
      description: 'Everything we need for your return',
      vertical: 'accounting',
      settings: { theme: 'blue' },
      translations: { 'fr-FR': { name: 'Dossier fiscal' } },
    });
    expect(snapshot.steps).toHaveLength(2);
    const steps = template.body.template.template_steps;
    expect(snapshot.steps[0]).toEqual({
      id: steps[0].id,
      title: 'About you',
      sort_order: 1,
      is_optional: false,
      conditional_rules: null,
      translations: null,
      fields: [
        {
          id: steps[0].template_fields[0].id,
          type: 'short_text',
          label: 'Full name',
          is_required: true,
          sort_order: 1,
          config: {},
          conditional_rules: null,
          translations: null,
        },
      ],
    });
    expect(snapshot.steps[1]).toMatchObject({ is_optional: true });
  });

  it('a gallery template can be used', async () => {
    const gallery = await createGalleryTemplate(service, { name: 'Gallery intake' });
    const answer = await post({ template_id: gallery.id, client_id: tenant.clientId });
    expect(answer.status).toBe(201);
    const got = await onboardingRequest(service, tenant, 'GET', `/${answer.body.onboarding.id}`);
    expect(got.body.onboarding.templates).toEqual({ id: gallery.id, name: 'Gallery intake' });
  });

  it('due_date as YYYY-MM-DD is the end of that day in the team time zone, with due_on and due_timezone', async () => {
    const answer = await post({
      template_id: tenant.templateId,
      client_id: tenant.clientId,
      due_date: '2025-03-31',
      expires_at: '2025-04-15',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.onboarding).toMatchObject({
      due_date: '2025-03-31T23:59:59.999-04:00',
      due_on: '2025-03-31',
      due_timezone: 'America/New_York',
      expires_at: '2025-04-15T23:59:59.999-04:00',
    });
  });

  it('due_date as a timestamp with offset keeps the instant and its offset; no due_on', async () => {
    const answer = await post({
      template_id: tenant.templateId,
      client_id: tenant.clientId,
      due_date: '2025-04-01T12:30:00+02:00',
      expires_at: '2025-05-01T00:00:00Z',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.onboarding).toMatchObject({
      due_date: '2025-04-01T12:30:00.000+02:00',
      due_on: null,
      due_timezone: null,
      expires_at: '2025-05-01T00:00:00.000Z',
    });
    const null_expiry = await post({
      template_id: tenant.templateId,
      client_id: tenant.clientId,
      expires_at: null,
    });
    expect(null_expiry.body.onboarding.expires_at).toBeNull();
  });

  it.each([
    ['due_date', '2025-02-30'],
    ['due_date', '31/03/2025'],
    ['due_date', '2025-04-01T12:30:00'],
    ['due_date', 'tomorrow'],
    ['due_date', 20250401],
    ['due_date', true],
    ['expires_at', '2025-13-01'],
    ['expires_at', ''],
  ])('%s %j: 400 invalid_deadline, nothing created', async (field, value) => {
    const before = await onboardingRequest(service, tenant, 'GET', '?archived=all');
    const answer = await post({ template_id: tenant.templateId, client_id: tenant.clientId, [field]: value });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(fullError(400, 'invalid_deadline'));
    expect(answer.body.error).toBe(`${field} must be a date (YYYY-MM-DD) or a timestamp with offset`);
    const after = await onboardingRequest(service, tenant, 'GET', '?archived=all');
    expect(after.body.total).toBe(before.body.total);
  });

  it.each([
    ['non-UUID template_id', () => ({ template_id: 'abc', client_id: tenant.clientId }), 'body/template_id'],
    ['non-UUID client_id', () => ({ template_id: tenant.templateId, client_id: '123' }), 'body/client_id'],
    ['missing template_id', () => ({ client_id: tenant.clientId }), 'body/template_id'],
    ['missing client_id', () => ({ template_id: tenant.templateId }), 'body/client_id'],
    ['no body', () => undefined, 'body'],
    ['an array body', () => [], 'body'],
  ])('%s: 400 invalid_body, details naming the field', async (_name, body, path) => {
    const answer = await post(body());
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      ...fullError(400, 'invalid_body'),
      details: { issues: [expect.objectContaining({ path, message: expect.any(String) })] },
    });
  });

  it('a malformed body is 400 invalid_body before the scope check; a valid one without the scope is 403', async () => {
    const readOnly = await createApiKey(service, tenant.teamId, ['onboardings:read']);
    const malformed = await post({ template_id: 'nope' }, readOnly.apiKey);
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('invalid_body');
    const denied = await post(
      { template_id: tenant.templateId, client_id: tenant.clientId },
      readOnly.apiKey,
    );
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('api_key_scope_denied');
  });

  it('404 template_missing: unknown, deleted, or another team’s template; nothing created', async () => {
    const other = await createTeamWithKey(service);
    const othersTemplate = await createTemplate(service, other.teamId);
    const deleted = await createTemplate(service, tenant.teamId);
    await deleteTemplate(service, tenant.teamId, deleted.id);
    for (const templateId of [randomUUID(), othersTemplate.id, deleted.id]) {
      const answer = await post({ template_id: templateId, client_id: tenant.clientId });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(fullError(404, 'template_missing'));
      expect(answer.body.error).toBe('Template not found');
    }
  });

  it('404 client_scope_missing: unknown or another team’s client', async () => {
    const other = await createTeamWithKey(service);
    const othersClient = await createClient(service, other);
    for (const clientId of [randomUUID(), othersClient.id]) {
      const answer = await post({ template_id: tenant.templateId, client_id: clientId });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(fullError(404, 'client_scope_missing'));
      expect(answer.body.error).toBe('Client not found');
    }
  });

  it('410 client_erasure_pending for an erased client', async () => {
    const client = await createClient(service, tenant, 'To Be Erased');
    await eraseClient(service, client.id);
    const answer = await post({ template_id: tenant.templateId, client_id: client.id });
    expect(answer.status).toBe(410);
    expect(answer.body).toEqual(fullError(410, 'client_erasure_pending'));
    expect(answer.body.error).toBe('Client has been erased');
  });

  it('409 gallery_template_copy_required for a gallery template with sample agreement text; nothing created', async () => {
    const gallery = await createGalleryTemplate(service, {
      name: 'Engagement letter',
      steps: [
        { title: 'Intro', sort_order: 1, fields: [{ type: 'short_text', label: 'Name', sort_order: 1 }] },
        {
          title: 'Sign',
          sort_order: 2,
          fields: [
            {
              type: 'signature',
              label: 'Engagement agreement',
              sort_order: 1,
              is_required: true,
              config: { agreement_text: 'Sample agreement text…', is_sample_text: true },
            },
          ],
        },
      ],
    });
    const before = await onboardingRequest(service, tenant, 'GET', '?archived=all');
    const answer = await post({ template_id: gallery.id, client_id: tenant.clientId });
    expect(answer.status).toBe(409);
    const sign = gallery.template_steps[1]!;
    expect(answer.body).toEqual({
      ...fullError(409, 'gallery_template_copy_required'),
      details: { field_id: sign.template_fields[0]!.id, step_id: sign.id },
    });
    expect(answer.body.error).toContain('"Engagement agreement"');
    const after = await onboardingRequest(service, tenant, 'GET', '?archived=all');
    expect(after.body.total).toBe(before.body.total);

    // The same structure as the team's own template is created (the send checks it later).
    const own = await createTemplate(service, tenant.teamId, {
      steps: gallery.template_steps.map(() => ({ title: 'x', sort_order: 1 })),
    });
    expect((await post({ template_id: own.id, client_id: tenant.clientId })).status).toBe(201);
  });

  it('another team sees the onboarding as not found', async () => {
    const onboarding = await createOnboarding(service, tenant);
    const other = await createTeamWithKey(service);
    const answer = await onboardingRequest(service, { apiKey: other.apiKey }, 'GET', `/${onboarding.id}`);
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('target_unavailable');
  });
});
