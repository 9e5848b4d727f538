import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsReceiver, type HttpsReceiver } from '../../helpers/https-receiver.ts';
import type { TestService } from '../../helpers/service.ts';
import { apiRequest } from '../../helpers/tenant.ts';
import { advance, completeOnboarding, drain, START, startOutboundService } from '../automation-fixtures.ts';
import { createOnboarding, createTenant, sendOnboarding, type Tenant } from '../onboardings-fixtures.ts';

/*
 * Hook deliveries (POST /api/v1/automation/subscribe): every active subscription receives
 * its own copy of every event of its type, Standard Webhooks style, with retries.
 */

let service: TestService;
let receiver: HttpsReceiver;

beforeAll(async () => {
  service = await startOutboundService();
  receiver = await startHttpsReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await service?.stop();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const requestsTo = (path: string) => receiver.requests.filter((request) => request.path === path);

async function subscribe(tenant: Tenant, event: string, path: string): Promise<string> {
  const answer = await apiRequest(service, tenant.apiKey, 'POST', '/automation/subscribe', {
    body: { event, target_url: `${receiver.url}${path}` },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id;
}

async function sent(tenant: Tenant) {
  const { id } = await createOnboarding(service, tenant);
  expect((await sendOnboarding(service, tenant, id)).status).toBe(200);
  return id;
}

const deliveries = async (subscriptionId: string) =>
  (
    await service.database.pool.query(
      `select d.id, d.state, d.attempts, d.last_status_code,
              (select json_agg(json_build_object('attempt', a.attempt, 'status_code', a.status_code, 'error', a.error) order by a.attempt)
               from hook_delivery_attempts a where a.delivery_id = d.id) as log
       from hook_deliveries d where d.subscription_id = $1 order by d.created_at`,
      [subscriptionId],
    )
  ).rows;

describe('hook deliveries', () => {
  it('each active subscription gets its own copy: Standard Webhooks headers, body {id, event, timestamp, data}', async () => {
    const tenant = await createTenant(service);
    const first = await subscribe(tenant, 'onboarding.sent', '/sent-a');
    const second = await subscribe(tenant, 'onboarding.sent', '/sent-b');
    await subscribe(tenant, 'onboarding.completed', '/completed-only');
    const onboardingId = await sent(tenant);
    await drain(service);

    const [a] = requestsTo('/sent-a');
    const [b] = requestsTo('/sent-b');
    expect(requestsTo('/sent-a')).toHaveLength(1);
    expect(requestsTo('/sent-b')).toHaveLength(1);
    expect(requestsTo('/completed-only')).toHaveLength(0);
    const feed = await apiRequest(service, tenant.apiKey, 'GET', '/events?type=onboarding.sent');
    const event = feed.body.events[0];
    expect(a!.json()).toEqual({
      id: event.id,
      event: 'onboarding.sent',
      timestamp: '2026-11-21T10:15:00.123000+00:00',
      data: {
        ...event.data,
        onboarding_id: onboardingId,
        client_id: tenant.clientId,
        template_id: tenant.templateId,
        status: 'sent',
        progress_pct: 0,
      },
    });
    expect(b!.body).toBe(a!.body);
    expect(a!.headers['content-type']).toBe('application/json');
    expect(a!.headers['webhook-id']).toMatch(UUID);
    expect(b!.headers['webhook-id']).toMatch(UUID);
    expect(a!.headers['webhook-id']).not.toBe(b!.headers['webhook-id']);
    expect(a!.headers['webhook-timestamp']).toBe(String(Math.floor(START.getTime() / 1000)));
    expect(a!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(await deliveries(first)).toEqual([
      expect.objectContaining({
        id: a!.headers['webhook-id'],
        state: 'delivered',
        attempts: 1,
        last_status_code: 200,
      }),
    ]);
    expect((await deliveries(second))[0].id).toBe(b!.headers['webhook-id']);
  });

  it('500 then 200: retried after 5 seconds with the same webhook-id and body; the delivery log keeps both attempts', async () => {
    const tenant = await createTenant(service);
    const subscription = await subscribe(tenant, 'onboarding.sent', '/retry');
    receiver.respondWith({ status: 500 });
    await sent(tenant);
    await drain(service);
    expect(requestsTo('/retry')).toHaveLength(1);
    expect(await deliveries(subscription)).toEqual([
      expect.objectContaining({ state: 'retrying', attempts: 1 }),
    ]);
    await advance(service, 4);
    expect(requestsTo('/retry')).toHaveLength(1);
    await advance(service, 1);
    const [first, second] = requestsTo('/retry');
    expect(requestsTo('/retry')).toHaveLength(2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    expect(Number(second!.headers['webhook-timestamp'])).toBe(
      Number(first!.headers['webhook-timestamp']) + 5,
    );
    expect(await deliveries(subscription)).toEqual([
      expect.objectContaining({
        state: 'delivered',
        attempts: 2,
        log: [
          { attempt: 1, status_code: 500, error: 'HTTP 500' },
          { attempt: 2, status_code: 200, error: null },
        ],
      }),
    ]);
  });

  it('an unreachable target is retried on the schedule (5 s, 5 min, 30 min, ...) and fails after 8 attempts', async () => {
    const tenant = await createTenant(service);
    const subscription = await subscribe(tenant, 'onboarding.sent', '/unreachable');
    receiver.fallback = (request) => (request.path === '/unreachable' ? { status: 503 } : { status: 200 });
    await sent(tenant);
    await drain(service);
    for (const wait of [5, 300, 1800, 7200, 18_000, 36_000, 36_000]) await advance(service, wait);
    expect(requestsTo('/unreachable')).toHaveLength(8);
    expect(await deliveries(subscription)).toEqual([
      expect.objectContaining({ state: 'failed', attempts: 8, last_status_code: 503 }),
    ]);
    await advance(service, 86_400);
    expect(requestsTo('/unreachable')).toHaveLength(8);
    receiver.fallback = { status: 200 };
  });

  it('a 4xx other than 408 and 429 fails the delivery at once; 429 honours Retry-After', async () => {
    const tenant = await createTenant(service);
    const gone = await subscribe(tenant, 'onboarding.sent', '/gone');
    const busy = await subscribe(tenant, 'onboarding.sent', '/busy');
    receiver.fallback = (request) =>
      request.path === '/gone'
        ? { status: 410 }
        : request.path === '/busy' && requestsTo('/busy').length === 1
          ? { status: 429, headers: { 'retry-after': '120' } }
          : { status: 200 };
    await sent(tenant);
    await drain(service);
    expect(await deliveries(gone)).toEqual([
      expect.objectContaining({ state: 'failed', attempts: 1, last_status_code: 410 }),
    ]);
    await advance(service, 60);
    expect(requestsTo('/busy')).toHaveLength(1);
    await advance(service, 60);
    expect(requestsTo('/busy')).toHaveLength(2);
    expect(await deliveries(busy)).toEqual([
      expect.objectContaining({
        state: 'delivered',
        log: [
          { attempt: 1, status_code: 429, error: 'HTTP 429' },
          { attempt: 2, status_code: 200, error: null },
        ],
      }),
    ]);
    expect(requestsTo('/gone')).toHaveLength(1);
    receiver.fallback = { status: 200 };
  });

  it('a deleted subscription gets nothing more; one made after an event gets no copy of it; other teams see nothing', async () => {
    const tenant = await createTenant(service);
    const other = await createTenant(service);
    const early = await subscribe(tenant, 'onboarding.completed', '/early');
    await subscribe(other, 'onboarding.completed', '/other-team');
    await completeOnboarding(service, tenant);
    await drain(service);
    await subscribe(tenant, 'onboarding.completed', '/late');
    const removed = await apiRequest(service, tenant.apiKey, 'DELETE', '/automation/subscribe', {
      body: { id: early },
    });
    expect(removed.status).toBe(200);
    await completeOnboarding(service, tenant);
    await drain(service);
    expect(requestsTo('/early')).toHaveLength(1);
    expect(requestsTo('/late')).toHaveLength(1);
    expect(requestsTo('/late')[0]!.json().data.status).toBe('completed');
    expect(requestsTo('/other-team')).toHaveLength(0);
  });

  it('a target whose redirect leads to a private address not allowlisted is refused and retried', async () => {
    const tenant = await createTenant(service);
    const subscription = await subscribe(tenant, 'onboarding.sent', '/hop');
    receiver.fallback = (request) =>
      request.path === '/hop'
        ? { status: 308, headers: { location: `https://10.1.2.3:${receiver.port}/inside` } }
        : { status: 200 };
    await sent(tenant);
    await drain(service);
    expect(await deliveries(subscription)).toEqual([
      expect.objectContaining({
        state: 'retrying',
        log: [{ attempt: 1, status_code: null, error: 'redirect refused: private or internal address' }],
      }),
    ]);
    receiver.fallback = { status: 200 };
  });
});
