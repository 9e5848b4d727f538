import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest, createApiKey, createTeamWithKey } from '../../helpers/tenant.ts';
import {
  archive,
  createClient,
  createOnboarding,
  createTenant,
  eraseClient,
  latestToken,
  onboardingRequest,
  openLink,
  sendOnboarding,
  type Tenant,
} from '../onboardings-fixtures.ts';

let service: TestService;
let tenant: Tenant;
let client: { id: string; name: string; email: string };
/** Created in this order, one minute apart: draft, sent, in_progress, cancelled, archived (sent). */
const ids: Record<'draft' | 'sent' | 'in_progress' | 'cancelled' | 'archived', string> = {
  draft: '',
  sent: '',
  in_progress: '',
  cancelled: '',
  archived: '',
};
let otherClientOnboarding = '';

beforeAll(async () => {
  service = await startTestService();
  service.clock.set(new Date('2025-03-10T15:00:00.000Z'));
  tenant = await createTenant(service);
  const answer = await apiRequest(service, tenant.apiKey, 'GET', `/clients/${tenant.clientId}`);
  client = answer.body.client;
  for (const name of Object.keys(ids) as (keyof typeof ids)[]) {
    service.clock.advance(60);
    ids[name] = (await createOnboarding(service, tenant)).id;
  }
  await sendOnboarding(service, tenant, ids.sent);
  await sendOnboarding(service, tenant, ids.in_progress);
  await openLink(service, ids.in_progress, await latestToken(service, ids.in_progress));
  await onboardingRequest(service, tenant, 'PATCH', `/${ids.cancelled}`, { body: { status: 'cancelled' } });
  await sendOnboarding(service, tenant, ids.archived);
  await archive(service, ids.archived);
  service.clock.advance(60);
  const second = await createClient(service, tenant, 'Grace Hopper');
  otherClientOnboarding = (await createOnboarding(service, { ...tenant, clientId: second.id })).id;
});
afterAll(async () => service?.stop());

const list = (query = '', apiKey = tenant.apiKey) => onboardingRequest(service, { apiKey }, 'GET', query);
const listIds = async (query = '') => {
  const answer = await list(query);
  expect(answer.status).toBe(200);
  return (answer.body.onboardings as { id: string }[]).map((item) => item.id);
};

describe('GET /api/v1/onboardings', () => {
  it('newest first, with total, clients {id, name, email} and templates {id, name}; archived left out by default', async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(5);
    expect(answer.body.onboardings.map((item: { id: string }) => item.id)).toEqual([
      otherClientOnboarding,
      ids.cancelled,
      ids.in_progress,
      ids.sent,
      ids.draft,
    ]);
    const item = answer.body.onboardings.find((entry: { id: string }) => entry.id === ids.sent);
    expect(item).toEqual({
      id: ids.sent,
      status: 'sent',
      progress_pct: 0,
      created_at: '2025-03-10T15:02:00.000Z',
      due_date: null,
      due_on: null,
      due_timezone: null,
      expires_at: null,
      assigned_to: null,
      archived_at: null,
      clients: { id: client.id, name: client.name, email: client.email },
      templates: { id: tenant.templateId, name: 'Tax intake' },
    });
  });

  it('offset pagination: limit and offset; total counts every match', async () => {
    const page = await list('?limit=2&offset=1');
    expect(page.body.total).toBe(5);
    expect(page.body.onboardings.map((item: { id: string }) => item.id)).toEqual([
      ids.cancelled,
      ids.in_progress,
    ]);
    expect((await list('?offset=10')).body).toEqual({ onboardings: [], total: 5 });
  });

  it('status filter', async () => {
    expect(await listIds('?status=in_progress')).toEqual([ids.in_progress]);
    expect(await listIds('?status=cancelled')).toEqual([ids.cancelled]);
    expect(await listIds('?status=draft')).toEqual([otherClientOnboarding, ids.draft]);
    expect(await listIds('?status=completed')).toEqual([]);
    expect(await listIds('?status=expired')).toEqual([]);
  });

  it('client_id filter', async () => {
    const answer = await list(`?client_id=${tenant.clientId}`);
    expect(answer.body.total).toBe(4);
    expect(await listIds(`?client_id=${randomUUID()}`)).toEqual([]);
  });

  it('archived: false (default) without, only = only archived, true and all = both', async () => {
    expect(await listIds('?archived=false')).not.toContain(ids.archived);
    expect(await listIds('?archived=only')).toEqual([ids.archived]);
    expect(await listIds('?archived=true')).toHaveLength(6);
    expect(await listIds('?archived=all')).toHaveLength(6);
    const [archived] = (await list('?archived=only')).body.onboardings;
    expect(archived.archived_at).toEqual(expect.stringMatching(/^2025-03-10T/));
    expect(archived.status).toBe('sent');
  });

  it.each([
    ['status=archived'],
    ['status=pending'],
    ['status='],
    ['archived=yes'],
    ['client_id=abc'],
    ['limit=0'],
    ['limit=101'],
    ['offset=-1'],
  ])('%s: 400 invalid_body', async (query) => {
    const answer = await list(`?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_body', retryable: false });
  });

  it('a bad query is 400 invalid_body before the scope check; a key without onboardings:read is 403', async () => {
    const key = await createApiKey(service, tenant.teamId, ['clients:read']);
    expect((await list('?status=nope', key.apiKey)).body.code).toBe('invalid_body');
    expect((await list('', key.apiKey)).body.code).toBe('api_key_scope_denied');
  });

  it('another team sees none of them', async () => {
    const other = await createTeamWithKey(service);
    expect((await list('?archived=all', other.apiKey)).body).toEqual({ onboardings: [], total: 0 });
  });
});

describe('GET /api/v1/onboardings/:id', () => {
  it('the onboarding with template_snapshot (archived ones too)', async () => {
    const answer = await onboardingRequest(service, tenant, 'GET', `/${ids.in_progress}`);
    expect(answer.status).toBe(200);
    expect(answer.body.onboarding).toMatchObject({
      id: ids.in_progress,
      status: 'in_progress',
      clients: { id: client.id, name: client.name, email: client.email },
      templates: { id: tenant.templateId, name: 'Tax intake' },
      template_snapshot: { name: 'Tax intake', steps: expect.any(Array) },
    });
    const archived = await onboardingRequest(service, tenant, 'GET', `/${ids.archived}`);
    expect(archived.body.onboarding.archived_at).not.toBeNull();
  });

  it('unknown or another team’s: 404 target_unavailable; not a UUID: 400 invalid_body', async () => {
    const unknown = await onboardingRequest(service, tenant, 'GET', `/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: 'Onboarding not found',
      code: 'target_unavailable',
      message: 'Onboarding not found',
      retryable: false,
      request_id: expect.any(String),
    });
    const other = await createTeamWithKey(service);
    expect((await onboardingRequest(service, { apiKey: other.apiKey }, 'GET', `/${ids.draft}`)).status).toBe(
      404,
    );
    const bad = await onboardingRequest(service, tenant, 'GET', '/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_body');
  });
});

describe('read your writes and the events feed', () => {
  it('a GET right after each write sees it', async () => {
    for (let n = 0; n < 5; n++) {
      const { id } = await createOnboarding(service, tenant);
      expect((await onboardingRequest(service, tenant, 'GET', `/${id}`)).status).toBe(200);
      await sendOnboarding(service, tenant, id);
      expect((await onboardingRequest(service, tenant, 'GET', `/${id}`)).body.onboarding.status).toBe('sent');
      await onboardingRequest(service, tenant, 'PATCH', `/${id}`, { body: { status: 'in_progress' } });
      expect((await onboardingRequest(service, tenant, 'GET', `/${id}`)).body.onboarding.status).toBe(
        'in_progress',
      );
    }
  });

  it('the events feed shows onboarding events under their public and internal names', async () => {
    const { id } = await createOnboarding(service, tenant);
    await sendOnboarding(service, tenant, id);
    await openLink(service, id, await latestToken(service, id));
    await onboardingRequest(service, tenant, 'PATCH', `/${id}`, { body: { status: 'cancelled' } });
    const feed = await apiRequest(service, tenant.apiKey, 'GET', '/events?limit=100');
    const mine = (
      feed.body.events as { type: string; onboarding_id: string; data: Record<string, unknown> }[]
    )
      .filter((event) => event.onboarding_id === id)
      .map((event) => event.type);
    expect(mine).toEqual([
      'onboarding_cancelled',
      'onboarding.started',
      'onboarding.sent',
      'onboarding_created',
    ]);
    const sent = await apiRequest(service, tenant.apiKey, 'GET', '/events?type=onboarding.sent&limit=100');
    const event = sent.body.events.find((entry: { onboarding_id: string }) => entry.onboarding_id === id);
    expect(event.data).toMatchObject({ onboarding_id: id, send_number: 1, counted: true });
    expect(JSON.stringify(sent.body)).not.toContain('token_hash');
  });
});

describe('erased clients', () => {
  it('their onboardings are never listed and never found', async () => {
    const other = await createTenant(service);
    const draft = await createOnboarding(service, other);
    const sent = await createOnboarding(service, other);
    await sendOnboarding(service, other, sent.id);
    await eraseClient(service, other.clientId);
    expect((await list('?archived=all', other.apiKey)).body).toEqual({ onboardings: [], total: 0 });
    expect((await onboardingRequest(service, other, 'GET', `/${draft.id}`)).status).toBe(404);
    // Also when only the onboarding records the erasure.
    const again = await createTenant(service);
    const recorded = await createOnboarding(service, again);
    await service.database.pool.query('update clients set erased_at = null where id = $1', [again.clientId]);
    await eraseClient(service, randomUUID(), [recorded.id]);
    expect((await list('?archived=all', again.apiKey)).body.total).toBe(0);
  });
});
