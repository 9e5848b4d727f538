import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { trustCertificatesForTests } from '../../../shared/net/outbound.ts';
import { createLogger } from '../../../shared/logging/logger.ts';
import {
  selfSignedCertificate,
  startHttpsReceiver,
  type HttpsReceiver,
  type ReceivedRequest,
} from '../../helpers/https-receiver.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest, createTeam } from '../../helpers/tenant.ts';
import { advance, drain, START } from '../automation-fixtures.ts';
import { createOnboarding, createTenant, sendOnboarding, type Tenant } from '../onboardings-fixtures.ts';

/*
 * Signed deliveries: every hook delivery carries webhook-signature (the team's secret),
 * every signed webhook endpoint delivery X-Service-Signature (the endpoint's secret), both
 * in the Standard Webhooks format, checked here with the official `standardwebhooks`
 * verifier; and the delivery log with its test sends and replays.
 */

let service: TestService;
let receiver: HttpsReceiver;
const logLines: string[] = [];
/** Every secret the tests saw: none may appear in the log. */
const secretsSeen = new Set<string>();

beforeAll(async () => {
  const logger = createLogger('debug', { write: (line: string) => void logLines.push(line) });
  service = await startTestService(
    {
      RATE_LIMITS: 'off',
      HOOK_TARGET_ALLOWLIST: '127.0.0.1,localhost',
      PUBLIC_URL: 'https://forms.example.com',
    },
    { logger },
  );
  service.clock.set(START);
  trustCertificatesForTests(service.context, (await selfSignedCertificate()).cert);
  receiver = await startHttpsReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await service?.stop();
});

const requestsTo = (path: string) => receiver.requests.filter((request) => request.path === path);

/** The official verifier, at the time the request was signed (its 5-minute tolerance uses the wall clock). */
function verify(
  secret: string,
  request: ReceivedRequest,
  signatureHeader = 'webhook-signature',
  body = request.body,
) {
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers[signatureHeader]),
  };
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Number(headers['webhook-timestamp']) * 1000);
  try {
    return new Webhook(secret).verify(body, headers);
  } finally {
    vi.useRealTimers();
  }
}

const tampered = (request: ReceivedRequest) => request.body.replace('"data":{', '"data":{"extra":1,');

async function subscribe(tenant: Tenant, event: string, path: string): Promise<string> {
  const answer = await apiRequest(service, tenant.apiKey, 'POST', '/automation/subscribe', {
    body: { event, target_url: `${receiver.url}${path}` },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id;
}

async function createEndpoint(tenant: Tenant, path: string, eventTypes: string[]) {
  const answer = await adminRequest(service, 'POST', `/teams/${tenant.teamId}/webhook-endpoints`, {
    url: `${receiver.url}${path}`,
    event_types: eventTypes,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  secretsSeen.add(answer.body.secret);
  return answer.body as { endpoint: { id: string }; secret: string };
}

async function teamSecret(tenant: Tenant) {
  const answer = await adminRequest(service, 'GET', `/teams/${tenant.teamId}/hook-signing-secret`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  secretsSeen.add(answer.body.secret);
  return answer.body as { secret: string; previous_valid_until: string | null };
}

async function sent(tenant: Tenant) {
  const { id } = await createOnboarding(service, tenant);
  expect((await sendOnboarding(service, tenant, id)).status).toBe(200);
  return id;
}

describe('signed hook deliveries', () => {
  it('a hook delivery is accepted by the official verifier with the team secret; a tampered body is rejected', async () => {
    const tenant = await createTenant(service);
    await subscribe(tenant, 'onboarding.sent', '/signed-hook');
    await sent(tenant);
    await drain(service);
    const [delivery] = requestsTo('/signed-hook');
    const { secret } = await teamSecret(tenant);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verify(secret, delivery!)).toEqual(delivery!.json());
    expect(() => verify(secret, delivery!, 'webhook-signature', tampered(delivery!))).toThrow(
      WebhookVerificationError,
    );
    const other = await createTenant(service);
    const otherSecret = (await teamSecret(other)).secret;
    expect(otherSecret).not.toBe(secret);
    expect(() => verify(otherSecret, delivery!)).toThrow(WebhookVerificationError);
  });

  it('rotation: both secrets sign during the 24-hour overlap, only the new one after it', async () => {
    const tenant = await createTenant(service);
    await subscribe(tenant, 'onboarding.sent', '/rotating-hook');
    const old = await teamSecret(tenant);
    const rotated = await adminRequest(service, 'POST', `/teams/${tenant.teamId}/hook-signing-secret/rotate`);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    secretsSeen.add(rotated.body.secret);
    expect(rotated.body.secret).not.toBe(old.secret);
    const overlapEnd = new Date(service.clock.now().getTime() + 24 * 3600_000).toISOString();
    expect(rotated.body.previous_valid_until).toBe(overlapEnd);
    expect(await teamSecret(tenant)).toEqual({
      secret: rotated.body.secret,
      previous_valid_until: overlapEnd,
    });

    await sent(tenant);
    await drain(service);
    const [during] = requestsTo('/rotating-hook');
    expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(old.secret, during!)).toEqual(during!.json());
    expect(verify(rotated.body.secret, during!)).toEqual(during!.json());

    await advance(service, 24 * 3600 + 1);
    await sent(tenant);
    await drain(service);
    const after = requestsTo('/rotating-hook')[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(rotated.body.secret, after)).toEqual(after.json());
    expect(() => verify(old.secret, after)).toThrow(WebhookVerificationError);
  });
});

describe('signed webhook endpoints', () => {
  it('not on the Free plan: 403 webhooks_plan_required', async () => {
    const team = await createTeam(service, { plan: 'free' });
    const answer = await adminRequest(service, 'POST', `/teams/${team.id}/webhook-endpoints`, {
      url: `${receiver.url}/free`,
      event_types: ['onboarding.sent'],
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'webhooks_plan_required', retryable: false });
  });

  it('create, list, read, delete; unknown event types and non-public URLs are refused', async () => {
    const tenant = await createTenant(service);
    const base = `/teams/${tenant.teamId}/webhook-endpoints`;
    const bad = await adminRequest(service, 'POST', base, {
      url: `${receiver.url}/x`,
      event_types: ['client.created'],
    });
    expect(bad.status).toBe(400);
    const privateUrl = await adminRequest(service, 'POST', base, {
      url: 'https://10.0.0.1/hook',
      event_types: ['onboarding.sent'],
    });
    expect(privateUrl.status).toBe(400);
    const { endpoint, secret } = await createEndpoint(tenant, '/crud', [
      'onboarding.sent',
      'onboarding.sent',
    ]);
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ event_types: ['onboarding.sent'], enabled: true });
    const listed = await adminRequest(service, 'GET', base);
    expect(listed.body.endpoints).toEqual([endpoint]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const other = await createTenant(service);
    expect(
      (await adminRequest(service, 'GET', `/teams/${other.teamId}/webhook-endpoints/${endpoint.id}`)).status,
    ).toBe(404);
    expect((await adminRequest(service, 'DELETE', `${base}/${endpoint.id}`)).status).toBe(200);
    const gone = await adminRequest(service, 'GET', `${base}/${endpoint.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('webhook_endpoint_not_found');
  });

  it('X-Service-Signature verifies with the endpoint secret; the ninth type onboarding.cancelled arrives; tampering is rejected', async () => {
    const tenant = await createTenant(service);
    const { endpoint, secret } = await createEndpoint(tenant, '/endpoint', [
      'onboarding.sent',
      'onboarding.cancelled',
    ]);
    const onboardingId = await sent(tenant);
    const cancelled = await apiRequest(service, tenant.apiKey, 'PATCH', `/onboardings/${onboardingId}`, {
      body: { status: 'cancelled' },
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await drain(service);
    // The two deliveries go out in parallel lanes: in either order.
    const [first, second] = [...requestsTo('/endpoint')].sort((a, b) =>
      a.json().event.localeCompare(b.json().event),
    );
    expect(requestsTo('/endpoint')).toHaveLength(2);
    expect(first!.headers['webhook-signature']).toBeUndefined();
    expect(first!.headers['x-service-signature']).toMatch(/^v1,/);
    expect(verify(secret, second!, 'x-service-signature')).toMatchObject({ event: 'onboarding.sent' });
    expect(verify(secret, first!, 'x-service-signature')).toMatchObject({
      event: 'onboarding.cancelled',
      data: { onboarding_id: onboardingId, status: 'cancelled' },
    });
    expect(() => verify(secret, first!, 'x-service-signature', tampered(first!))).toThrow(
      WebhookVerificationError,
    );

    const rotated = await adminRequest(
      service,
      'POST',
      `/teams/${tenant.teamId}/webhook-endpoints/${endpoint.id}/rotate-secret`,
    );
    expect(rotated.status).toBe(200);
    secretsSeen.add(rotated.body.secret);
    await sent(tenant);
    await drain(service);
    const third = requestsTo('/endpoint')[2]!;
    expect(verify(secret, third, 'x-service-signature')).toMatchObject({ event: 'onboarding.sent' });
    expect(verify(rotated.body.secret, third, 'x-service-signature')).toMatchObject({
      event: 'onboarding.sent',
    });
  });
});

describe('delivery log, test sends and replays', () => {
  it('a failed endpoint delivery is logged, and replayed (twice at once: sent once) with the same webhook-id and body', async () => {
    const tenant = await createTenant(service);
    const { endpoint, secret } = await createEndpoint(tenant, '/replay', ['onboarding.sent']);
    receiver.respondWith({ status: 410 });
    await sent(tenant);
    await drain(service);
    const base = `/teams/${tenant.teamId}/webhook-endpoints/${endpoint.id}`;
    const log = await adminRequest(service, 'GET', `${base}/deliveries`);
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const [failed] = log.body.deliveries;
    expect(failed).toMatchObject({
      id: requestsTo('/replay')[0]!.headers['webhook-id'],
      event_type: 'onboarding.sent',
      state: 'failed',
      last_status_code: 410,
      attempts: [{ round: 0, attempt: 1, status_code: 410, error: 'HTTP 410', next_attempt_at: null }],
    });
    expect(failed.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);

    await advance(service, 60);
    const replays = await Promise.all([
      adminRequest(service, 'POST', `${base}/deliveries/${failed.id}/replay`),
      adminRequest(service, 'POST', `${base}/deliveries/${failed.id}/replay`),
    ]);
    expect(replays.map((answer) => answer.status)).toEqual([202, 202]);
    expect(replays.map((answer) => answer.body.replayed).sort()).toEqual([[], [failed.id]]);
    await drain(service);
    const [original, replayed] = requestsTo('/replay');
    expect(requestsTo('/replay')).toHaveLength(2);
    expect(replayed!.headers['webhook-id']).toBe(original!.headers['webhook-id']);
    expect(replayed!.body).toBe(original!.body);
    expect(Number(replayed!.headers['webhook-timestamp'])).toBe(
      Number(original!.headers['webhook-timestamp']) + 60,
    );
    expect(replayed!.headers['x-service-signature']).not.toBe(original!.headers['x-service-signature']);
    expect(verify(secret, replayed!, 'x-service-signature')).toEqual(original!.json());
    const after = await adminRequest(service, 'GET', `${base}/deliveries`);
    expect(after.body.deliveries[0]).toMatchObject({
      state: 'delivered',
      attempts: [
        { round: 0, attempt: 1, status_code: 410 },
        { round: 1, attempt: 1, status_code: 200, error: null },
      ],
    });
    // A delivered one can be replayed again; one still queued is left alone.
    expect(
      (await adminRequest(service, 'POST', `${base}/deliveries/${failed.id}/replay`)).body.replayed,
    ).toEqual([failed.id]);
    expect(
      (await adminRequest(service, 'POST', `${base}/deliveries/${failed.id}/replay`)).body.replayed,
    ).toEqual([]);
    await drain(service);
    expect(requestsTo('/replay')).toHaveLength(3);
  });

  it('hook subscriptions: test event, replay of every failed delivery since a time, pages newest first', async () => {
    const tenant = await createTenant(service);
    const subscription = await subscribe(tenant, 'onboarding.sent', '/hook-log');
    const base = `/teams/${tenant.teamId}/hook-subscriptions/${subscription}`;
    receiver.respondWith({ status: 400 }, { status: 400 });
    await sent(tenant);
    await sent(tenant);
    await drain(service);
    expect(requestsTo('/hook-log')).toHaveLength(2);

    await advance(service, 1);
    const test = await adminRequest(service, 'POST', `${base}/test`);
    expect(test.status, JSON.stringify(test.body)).toBe(202);
    await drain(service);
    const testRequest = requestsTo('/hook-log')[2]!;
    expect(testRequest.headers['webhook-id']).toBe(test.body.delivery_id);
    const { secret } = await teamSecret(tenant);
    expect(verify(secret, testRequest)).toMatchObject({
      event: 'webhook.test',
      data: { team_id: tenant.teamId, subscription_id: subscription },
    });

    const firstPage = await adminRequest(service, 'GET', `${base}/deliveries?limit=2`);
    expect(firstPage.body.deliveries.map((delivery: { event_type: string }) => delivery.event_type)).toEqual([
      'webhook.test',
      'onboarding.sent',
    ]);
    expect(firstPage.body.next_cursor).toEqual(expect.any(String));
    const secondPage = await adminRequest(
      service,
      'GET',
      `${base}/deliveries?limit=2&cursor=${firstPage.body.next_cursor}`,
    );
    expect(secondPage.body.deliveries).toHaveLength(1);
    expect(secondPage.body.next_cursor).toBeNull();
    const failedIds = [firstPage.body.deliveries[1].id, secondPage.body.deliveries[0].id];

    const later = await adminRequest(service, 'POST', `${base}/deliveries/replay-failed`, {
      since: new Date(service.clock.now().getTime() + 1000).toISOString(),
    });
    expect(later.body.replayed).toEqual([]);
    const replay = await adminRequest(service, 'POST', `${base}/deliveries/replay-failed`, {
      since: START.toISOString(),
    });
    expect(replay.status, JSON.stringify(replay.body)).toBe(202);
    expect([...replay.body.replayed].sort()).toEqual([...failedIds].sort());
    await drain(service);
    const resent = requestsTo('/hook-log').slice(3);
    expect(resent.map((request) => request.headers['webhook-id']).sort()).toEqual([...failedIds].sort());
    for (const request of resent) expect(verify(secret, request)).toMatchObject({ event: 'onboarding.sent' });

    const other = await createTenant(service);
    expect(
      (
        await adminRequest(
          service,
          'GET',
          `/teams/${other.teamId}/hook-subscriptions/${subscription}/deliveries`,
        )
      ).status,
    ).toBe(404);
  });

  it('no secret reaches the log or the events', async () => {
    expect(secretsSeen.size).toBeGreaterThan(5);
    const log = logLines.join('\n');
    expect(log.length).toBeGreaterThan(0);
    const events = await service.database.pool.query<{ type: string; data: string; metadata: string }>(
      'select type, data::text as data, metadata::text as metadata from events',
    );
    const stored = events.rows.map((row) => `${row.type} ${row.data} ${row.metadata}`).join('\n');
    expect(stored).toContain('hook_signing_secret');
    for (const secret of secretsSeen) {
      const key = secret.slice('whsec_'.length);
      expect(log).not.toContain(key);
      expect(stored).not.toContain(key);
    }
    expect(log).not.toContain('whsec_');
    expect(stored).not.toContain('whsec_');
  });
});
