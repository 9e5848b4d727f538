import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  startHttpsReceiver,
  type HttpsReceiver,
  type ReceivedRequest,
} from '../../helpers/https-receiver.ts';
import type { TestService } from '../../helpers/service.ts';
import { advance, drain, startOutboundService } from '../automation-fixtures.ts';
import { addMember, signUp, type Browser } from '../workspace-fixtures.ts';

/*
 * Hooks in the workspace: hook subscriptions, the hook signing secret, signed webhook
 * endpoints and their delivery logs, for owners and admins only, over real HTTP and
 * PostgreSQL; deliveries checked with the official `standardwebhooks` verifier.
 */

let service: TestService;
let receiver: HttpsReceiver;
let owner: Browser;
let member: Browser;
let teamId: string;
let ownerId: string;
const password = 'correct horse battery staple';

beforeAll(async () => {
  service = await startOutboundService();
  receiver = await startHttpsReceiver();
  ({
    owner,
    teamId,
    memberId: ownerId,
  } = await signUp(service, 'hooks-owner@example.com', password, 'Hooks'));
  ({ browser: member } = await addMember(service, owner, 'hooks-member@example.com', 'member'));
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await service?.stop();
});

const requestsTo = (path: string) => receiver.requests.filter((request) => request.path === path);

function verify(secret: string, request: ReceivedRequest, header = 'webhook-signature') {
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers[header]),
  };
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Number(headers['webhook-timestamp']) * 1000);
  try {
    return new Webhook(secret).verify(request.body, headers);
  } finally {
    vi.useRealTimers();
  }
}

const reauth = async (browser: Browser) =>
  expect((await browser.call('POST', '/workspace/v1/sessions/current/reauth', { password })).status).toBe(
    200,
  );

async function actorsOf(streamPrefix: string): Promise<Array<string | null>> {
  const { rows } = await service.context.pool.query<{ actor: string | null }>(
    `select metadata->>'actor_member_id' as actor from events where stream_id like $1 order by position`,
    [`${streamPrefix}%`],
  );
  return rows.map((row) => row.actor);
}

describe('workspace hooks', () => {
  it('a member gets 403 forbidden on every hooks route', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/hook-subscriptions'],
      ['GET', `/hook-subscriptions/${id}`],
      ['POST', '/hook-subscriptions', { event: 'onboarding.sent', target_url: `${receiver.url}/m` }],
      ['DELETE', `/hook-subscriptions/${id}`],
      ['GET', `/hook-subscriptions/${id}/deliveries`],
      ['POST', `/hook-subscriptions/${id}/test`],
      ['POST', `/hook-subscriptions/${id}/deliveries/${id}/replay`],
      ['POST', `/hook-subscriptions/${id}/deliveries/replay-failed`, { since: '2026-01-01T00:00:00Z' }],
      ['GET', '/hook-signing-secret'],
      ['POST', '/hook-signing-secret/rotate'],
      ['GET', '/webhook-endpoints'],
      ['GET', `/webhook-endpoints/${id}`],
      ['POST', '/webhook-endpoints', { url: `${receiver.url}/m`, event_types: ['onboarding.sent'] }],
      ['DELETE', `/webhook-endpoints/${id}`],
      ['POST', `/webhook-endpoints/${id}/rotate-secret`],
      ['GET', `/webhook-endpoints/${id}/deliveries`],
      ['POST', `/webhook-endpoints/${id}/test`],
      ['POST', `/webhook-endpoints/${id}/deliveries/${id}/replay`],
      ['POST', `/webhook-endpoints/${id}/deliveries/replay-failed`, { since: '2026-01-01T00:00:00Z' }],
    ];
    for (const [method, path, body] of routes) {
      const answer = await member.call(method, `/workspace/v1${path}`, body);
      expect([method, path, answer.status, answer.body?.code]).toEqual([method, path, 403, 'forbidden']);
    }
  });

  it('a subscription made in the workspace gets signed deliveries; a failed one replayed arrives with the same webhook-id', async () => {
    const invalid = await owner.call('POST', '/workspace/v1/hook-subscriptions', {
      event: 'onboarding.sent',
      target_url: 'https://10.0.0.1/hook',
    });
    expect([invalid.status, invalid.body.code]).toEqual([400, 'invalid_url']);
    const unknownEvent = await owner.call('POST', '/workspace/v1/hook-subscriptions', {
      event: 'nothing.happened',
      target_url: `${receiver.url}/ws-hook`,
    });
    expect(unknownEvent.status).toBe(400);

    const created = await owner.call('POST', '/workspace/v1/hook-subscriptions', {
      event: 'onboarding.sent',
      target_url: `${receiver.url}/ws-hook`,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const subscription = created.body.subscription;
    expect(subscription).toMatchObject({ event: 'onboarding.sent', created_by: 'workspace' });
    expect((await owner.call('GET', '/workspace/v1/hook-subscriptions')).body.data).toEqual([subscription]);
    expect(await actorsOf(`hook_subscription-${subscription.id}`)).toEqual([ownerId]);

    // The secret is shown after a re-authentication only.
    const unconfirmed = await owner.call('GET', '/workspace/v1/hook-signing-secret');
    expect([unconfirmed.status, unconfirmed.body.code]).toEqual([403, 'reauthentication_required']);
    await reauth(owner);
    const { secret } = (await owner.call('GET', '/workspace/v1/hook-signing-secret')).body;
    expect(secret).toMatch(/^whsec_/);

    const base = `/workspace/v1/hook-subscriptions/${subscription.id}`;
    const test = await owner.call('POST', `${base}/test`);
    expect(test.status, JSON.stringify(test.body)).toBe(202);
    await drain(service);
    const [delivered] = requestsTo('/ws-hook');
    expect(delivered!.headers['webhook-id']).toBe(test.body.delivery_id);
    expect(verify(secret, delivered!)).toMatchObject({
      event: 'webhook.test',
      data: { team_id: teamId, subscription_id: subscription.id },
    });

    receiver.respondWith({ status: 410 });
    const failing = await owner.call('POST', `${base}/test`);
    await drain(service);
    const log = await owner.call('GET', `${base}/deliveries`);
    expect(log.status).toBe(200);
    const failed = log.body.deliveries.find((d: { id: string }) => d.id === failing.body.delivery_id);
    expect(failed).toMatchObject({ state: 'failed', last_status_code: 410 });

    await advance(service, 60);
    const replay = await owner.call('POST', `${base}/deliveries/${failed.id}/replay`);
    expect([replay.status, replay.body.replayed]).toEqual([202, [failed.id]]);
    await drain(service);
    const [, original, replayed] = requestsTo('/ws-hook');
    expect(replayed!.headers['webhook-id']).toBe(original!.headers['webhook-id']);
    expect(replayed!.body).toBe(original!.body);
    expect(verify(secret, replayed!)).toEqual(original!.json());
    const since = await owner.call('POST', `${base}/deliveries/replay-failed`, {
      since: new Date(service.clock.now().getTime() + 1000).toISOString(),
    });
    expect([since.status, since.body.replayed]).toEqual([202, []]);

    expect((await owner.call('DELETE', base)).status).toBe(200);
    expect((await owner.call('GET', base)).status).toBe(404);
    const again = await owner.call('DELETE', base);
    expect([again.status, again.body.code]).toEqual([404, 'subscription_not_found']);
  });

  it('webhook endpoints: created and rotated after a re-authentication, signed with their own secret', async () => {
    await advance(service, 600);
    const body = { url: `${receiver.url}/ws-endpoint`, event_types: ['onboarding.sent'] };
    const unconfirmed = await owner.call('POST', '/workspace/v1/webhook-endpoints', body);
    expect([unconfirmed.status, unconfirmed.body.code]).toEqual([403, 'reauthentication_required']);
    await reauth(owner);
    const created = await owner.call('POST', '/workspace/v1/webhook-endpoints', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { endpoint, secret } = created.body;
    const listed = await owner.call('GET', '/workspace/v1/webhook-endpoints');
    expect(listed.body.data).toEqual([endpoint]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const base = `/workspace/v1/webhook-endpoints/${endpoint.id}`;
    expect((await owner.call('POST', `${base}/test`)).status).toBe(202);
    await drain(service);
    const [delivered] = requestsTo('/ws-endpoint');
    expect(verify(secret, delivered!, 'x-service-signature')).toMatchObject({ event: 'webhook.test' });

    const rotated = await owner.call('POST', `${base}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    expect((await owner.call('GET', `${base}/deliveries`)).body.deliveries).toHaveLength(1);
    expect((await owner.call('DELETE', base)).status).toBe(200);
    const gone = await owner.call('GET', base);
    expect([gone.status, gone.body.code]).toEqual([404, 'webhook_endpoint_not_found']);
  });

  it('a POST without the CSRF token is refused and changes nothing', async () => {
    const before = await owner.call('GET', '/workspace/v1/hook-subscriptions');
    const answer = await owner.call(
      'POST',
      '/workspace/v1/hook-subscriptions',
      { event: 'onboarding.sent', target_url: `${receiver.url}/csrf` },
      { 'x-csrf-token': '' },
    );
    expect([answer.status, answer.body.code]).toEqual([403, 'csrf_token_invalid']);
    expect((await owner.call('GET', '/workspace/v1/hook-subscriptions')).body).toEqual(before.body);
  });
});
