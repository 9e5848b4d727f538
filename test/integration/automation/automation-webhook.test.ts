import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsReceiver, type HttpsReceiver } from '../../helpers/https-receiver.ts';
import type { TestService } from '../../helpers/service.ts';
import { addMember, adminRequest, request, updateTeam } from '../../helpers/tenant.ts';
import {
  advance,
  completeOnboarding,
  createRule,
  drain,
  latestRun,
  minutes,
  startOutboundService,
} from '../automation-fixtures.ts';
import {
  createClient,
  createOnboarding,
  createTenant,
  getOnboarding,
  latestToken,
  sendOnboarding,
  templateIds,
  type Tenant,
} from '../onboardings-fixtures.ts';

/*
 * Send webhook end to end: a rule of the team, an onboarding completed through the
 * portal, the 5-minute queue pass by the service clock, a local HTTPS receiver.
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

/** A tenant with a webhook rule on onboarding.completed pointing at the receiver's `path`. */
async function webhookTenant(path: string, url = `${receiver.url}${path}`) {
  const tenant = await createTenant(service);
  const rule = await createRule(service, tenant.teamId, {
    name: 'Tell the CRM',
    trigger: 'onboarding.completed',
    action: { type: 'send_webhook', url },
  });
  return { tenant, rule };
}

const requestsTo = (path: string) => receiver.requests.filter((request) => request.path === path);

/** Moves the clock to the pass after now (5 minutes) and drains. */
const nextPass = () => advance(service, minutes(5));

describe('Send webhook', () => {
  it('onboarding completed → one POST with the exact body and headers, at the next 5-minute pass', async () => {
    const { tenant, rule } = await webhookTenant('/exact');
    expect(rule).toMatchObject({ enabled: true, latest_run: 'Has not run yet' });
    const { onboardingId } = await completeOnboarding(service, tenant);
    await drain(service);
    expect(requestsTo('/exact')).toHaveLength(0); // queued: the queue is worked every 5 minutes
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe('Has not run yet');

    await nextPass();
    const [request] = requestsTo('/exact');
    expect(requestsTo('/exact')).toHaveLength(1);
    const onboarding = await getOnboarding(service, tenant, onboardingId);
    const body = request!.json();
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      event: 'onboarding.completed',
      timestamp: '2026-11-21T10:15:00.123000+00:00',
      data: {
        onboarding_id: onboardingId,
        client_id: tenant.clientId,
        template_id: tenant.templateId,
        client_name: 'Ada Lovelace',
        client_email: onboarding.clients.email,
        template_name: 'Tax intake',
        status: 'completed',
        progress_pct: 100,
        created_at: '2026-11-21T10:15:00.123000+00:00',
      },
    });
    expect(Object.keys(body)).toEqual(['id', 'event', 'timestamp', 'data']);
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-service-event-id']).toBe(body.id);
    expect(request!.headers['idempotency-key']).toBe(body.id);
    expect(request!.rawHeaderNames).toEqual(
      expect.arrayContaining(['Content-Type', 'X-Service-Event-Id', 'Idempotency-Key']),
    );
    const signatureHeaders = Object.keys(request!.headers).filter((name) => /signature/i.test(name));
    expect(signatureHeaders).toEqual([]);
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe('Last ran Nov 21, 2026, 10:20 AM UTC');

    await nextPass();
    expect(requestsTo('/exact')).toHaveLength(1); // succeeded: never again
  });

  it('500 then 200 → two attempts with the same id and body; the latest-run line follows', async () => {
    const { tenant, rule } = await webhookTenant('/flaky');
    receiver.fallback = (request) =>
      request.path === '/flaky' && requestsTo('/flaky').length === 1 ? { status: 500 } : { status: 200 };
    await completeOnboarding(service, tenant);
    await nextPass();
    expect(requestsTo('/flaky')).toHaveLength(1);
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe('Failed, trying again: HTTP 500');

    await nextPass(); // the first retry waits 5 minutes
    const [first, second] = requestsTo('/flaky');
    expect(requestsTo('/flaky')).toHaveLength(2);
    expect(second!.body).toBe(first!.body);
    expect(second!.headers['x-service-event-id']).toBe(first!.headers['x-service-event-id']);
    expect(second!.headers['idempotency-key']).toBe(first!.json().id);
    expect(await latestRun(service, tenant.teamId, rule.id)).toMatch(
      /^Last ran Nov 21, 2026, \d{1,2}:\d{2} AM UTC$/,
    );
    receiver.fallback = { status: 200 };
  });

  it('400 → stopped after one attempt', async () => {
    const { tenant, rule } = await webhookTenant('/bad-request');
    receiver.fallback = (request) => (request.path === '/bad-request' ? { status: 400 } : { status: 200 });
    await completeOnboarding(service, tenant);
    await nextPass();
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe('Failed: HTTP 400 (stopped)');
    await advance(service, minutes(60));
    expect(requestsTo('/bad-request')).toHaveLength(1);
    const run = await service.database.pool.query(
      'select state, failure, attempts from automation_runs where rule_id = $1',
      [rule.id],
    );
    expect(run.rows).toEqual([{ state: 'failed', failure: 'stopped', attempts: 1 }]);
    receiver.fallback = { status: 200 };
  });

  it('408 and 5xx are retried; after the 10th failed attempt the run stops', async () => {
    const { tenant, rule } = await webhookTenant('/down');
    receiver.fallback = (request) => (request.path === '/down' ? { status: 503 } : { status: 200 });
    receiver.respondWith({ status: 408 });
    await completeOnboarding(service, tenant);
    await nextPass();
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe('Failed, trying again: HTTP 408');
    // Waits of 5, 10, 20, ... minutes: a day covers the remaining nine attempts.
    for (let hour = 0; hour < 48; hour++) await advance(service, minutes(60));
    expect(requestsTo('/down')).toHaveLength(10);
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe('Failed: HTTP 503 (stopped)');
    receiver.fallback = { status: 200 };
  });

  it('429 with Retry-After: the next attempt waits as long as asked', async () => {
    const { tenant, rule } = await webhookTenant('/busy');
    receiver.fallback = (request) =>
      request.path === '/busy' && requestsTo('/busy').length === 1
        ? { status: 429, headers: { 'retry-after': '1500' } }
        : { status: 200 };
    await completeOnboarding(service, tenant);
    await nextPass();
    expect(requestsTo('/busy')).toHaveLength(1);
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe('Failed, trying again: HTTP 429');
    await advance(service, minutes(20)); // the doubling wait alone would have retried after 5 minutes
    expect(requestsTo('/busy')).toHaveLength(1);
    await advance(service, minutes(10)); // 25 minutes asked: the pass after that
    expect(requestsTo('/busy')).toHaveLength(2);
    expect(await latestRun(service, tenant.teamId, rule.id)).toMatch(/^Last ran /);
    receiver.fallback = { status: 200 };
  });

  it('a redirect is followed with the same body when it stays on an allowed host', async () => {
    const { tenant, rule } = await webhookTenant('/moved');
    receiver.fallback = (request) =>
      request.path === '/moved'
        ? { status: 307, headers: { location: `https://localhost:${receiver.port}/new-home` } }
        : { status: 200 };
    await completeOnboarding(service, tenant);
    await nextPass();
    const [moved] = requestsTo('/moved');
    const [home] = requestsTo('/new-home');
    expect(home!.method).toBe('POST');
    expect(home!.body).toBe(moved!.body);
    expect(home!.headers['idempotency-key']).toBe(moved!.json().id);
    expect(await latestRun(service, tenant.teamId, rule.id)).toMatch(/^Last ran /);
    receiver.fallback = { status: 200 };
  });

  it('a redirect to a loopback address that is not allowlisted is refused (and retried, never reached)', async () => {
    let other: HttpsReceiver | undefined;
    try {
      other = await startHttpsReceiver('127.0.0.2');
    } catch {
      other = undefined; // no 127.0.0.2 on this machine: the refusal is still checked below
    }
    const target = other ? `${other.url}/private` : `https://127.0.0.2:${receiver.port}/private`;
    const { tenant, rule } = await webhookTenant('/to-private');
    receiver.fallback = (request) =>
      request.path === '/to-private' ? { status: 302, headers: { location: target } } : { status: 200 };
    await completeOnboarding(service, tenant);
    await nextPass();
    expect(requestsTo('/to-private')).toHaveLength(1);
    expect(other?.requests ?? []).toHaveLength(0);
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe(
      'Failed, trying again: redirect refused: private or internal address',
    );
    await other?.close();
    receiver.fallback = { status: 200 };
  });

  it('values are those of the event moment; a later edit of the rule does not change a queued run', async () => {
    const { tenant, rule } = await webhookTenant('/copy-1');
    await completeOnboarding(service, tenant);
    await drain(service);
    // The run is queued with a copy of the action; the edit applies to later events only.
    const patch = await adminRequest(
      service,
      'PATCH',
      `/teams/${tenant.teamId}/automation-rules/${rule.id}`,
      {
        action: { type: 'send_webhook', url: `${receiver.url}/copy-2` },
      },
    );
    expect(patch.status).toBe(200);
    await nextPass();
    expect(requestsTo('/copy-1')).toHaveLength(1);
    expect(requestsTo('/copy-2')).toHaveLength(0);
  });

  it('the plan is checked again before running: without automations the run is skipped, the line unchanged', async () => {
    const { tenant, rule } = await webhookTenant('/downgraded');
    await completeOnboarding(service, tenant);
    await drain(service);
    await updateTeam(service, tenant.teamId, { plan: 'starter' });
    await nextPass();
    await updateTeam(service, tenant.teamId, { plan: 'pro' });
    await nextPass();
    expect(requestsTo('/downgraded')).toHaveLength(0);
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe('Has not run yet');
    const run = await service.database.pool.query(
      'select state, attempts from automation_runs where rule_id = $1',
      [rule.id],
    );
    expect(run.rows).toEqual([{ state: 'skipped', attempts: 0 }]);
  });

  it('every enabled rule of the team runs independently; a switched-off rule gets no run', async () => {
    const tenant: Tenant = await createTenant(service);
    const good = await createRule(service, tenant.teamId, {
      name: 'Good',
      trigger: 'onboarding.completed',
      action: { type: 'send_webhook', url: `${receiver.url}/indep-good` },
    });
    const bad = await createRule(service, tenant.teamId, {
      name: 'Bad',
      trigger: 'onboarding.completed',
      action: { type: 'send_webhook', url: `${receiver.url}/indep-bad` },
    });
    const off = await createRule(service, tenant.teamId, {
      name: 'Off',
      trigger: 'onboarding.completed',
      enabled: false,
      action: { type: 'send_webhook', url: `${receiver.url}/indep-off` },
    });
    const other = await createRule(service, tenant.teamId, {
      name: 'Other trigger',
      trigger: 'onboarding.overdue',
      action: { type: 'send_webhook', url: `${receiver.url}/indep-other` },
    });
    receiver.fallback = (request) => (request.path === '/indep-bad' ? { status: 404 } : { status: 200 });
    const client = await createClient(service, tenant, 'Grace Hopper');
    await completeOnboarding(service, tenant, client.id);
    await nextPass();
    expect(requestsTo('/indep-good')).toHaveLength(1);
    expect(requestsTo('/indep-good')[0]!.json().data.client_name).toBe('Grace Hopper');
    expect(requestsTo('/indep-bad')).toHaveLength(1);
    expect(requestsTo('/indep-off')).toHaveLength(0);
    expect(requestsTo('/indep-other')).toHaveLength(0);
    expect(await latestRun(service, tenant.teamId, good.id)).toMatch(/^Last ran /);
    expect(await latestRun(service, tenant.teamId, bad.id)).toBe('Failed: HTTP 404 (stopped)');
    expect(await latestRun(service, tenant.teamId, off.id)).toBe('Has not run yet');
    expect(await latestRun(service, tenant.teamId, other.id)).toBe('Has not run yet');
    receiver.fallback = { status: 200 };
  });

  it('per-trigger extras: payment (one-time and recurring), signature (client and team member), overdue', async () => {
    const tenant: Tenant = await createTenant(service, {
      template: {
        name: 'Engagement',
        steps: [
          {
            title: 'Sign and pay',
            sort_order: 1,
            fields: [
              {
                type: 'signature',
                label: 'Letter',
                sort_order: 1,
                is_required: true,
                config: { agreement_text: 'We agree.', is_sample_text: false },
              },
              {
                type: 'payment',
                label: 'Fee',
                sort_order: 2,
                config: { amount_cents: 5000, currency: 'USD' },
              },
            ],
          },
        ],
      },
    });
    const member = await addMember(service, tenant.teamId, {
      name: 'Mia Partner',
      email: 'mia@acme.example.com',
    });
    for (const trigger of ['payment.succeeded', 'signature.signed', 'onboarding.overdue']) {
      await createRule(service, tenant.teamId, {
        name: trigger,
        trigger,
        action: { type: 'send_webhook', url: `${receiver.url}/extras/${trigger}` },
      });
    }
    const [step] = await templateIds(service, tenant, tenant.templateId);
    const [signatureField, paymentField] = step!.fieldIds;
    const { id } = await createOnboarding(service, tenant, { due_date: '2026-11-22' });
    expect((await sendOnboarding(service, tenant, id)).status).toBe(200);
    const token = await latestToken(service, id);
    expect((await request(service, 'GET', `/portal/v1/onboardings/${token}`)).status).toBe(200);
    const signed = await request(
      service,
      'POST',
      `/portal/v1/onboardings/${token}/fields/${signatureField}/signature`,
      {
        body: { signer_name: 'Ada Lovelace', signer_email: 'ADA@example.com' },
      },
    );
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    const payments = [
      { field_id: paymentField, amount_cents: 5000, payment_intent_id: 'pi_one' },
      {
        field_id: paymentField,
        amount_cents: 2500,
        payment_intent_id: 'pi_two',
        subscription_id: 'sub_123',
        interval: 'month',
      },
    ];
    const paymentIds: string[] = [];
    for (const payment of payments) {
      const answer = await adminRequest(service, 'POST', `/onboardings/${id}/payments`, payment);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      paymentIds.push(answer.body.payment.id);
    }
    const countersigned = await adminRequest(service, 'POST', `/onboardings/${id}/countersign`, {
      field_id: signatureField,
      member_id: member.id,
    });
    expect(countersigned.status, JSON.stringify(countersigned.body)).toBe(201);
    await advance(service, 2 * 24 * 3600); // overdue after the end of Nov 22 (UTC)
    await nextPass();

    const bodies = (trigger: string) => requestsTo(`/extras/${trigger}`).map((request) => request.json());
    const common = {
      onboarding_id: id,
      client_id: tenant.clientId,
      template_id: tenant.templateId,
      template_name: 'Engagement',
    };
    const payload = (intent: string) =>
      bodies('payment.succeeded').find((body) => body.data.payment_intent_id === intent);
    const [oneTime, recurring] = [payload('pi_one'), payload('sub_123')];
    expect(oneTime.data).toEqual({
      ...common,
      client_name: 'Ada Lovelace',
      client_email: expect.any(String),
      status: 'in_progress',
      progress_pct: 0,
      created_at: expect.any(String),
      payment_id: paymentIds[0],
      field_id: paymentField,
      payment_intent_id: 'pi_one',
      amount_cents: 5000,
    });
    expect(recurring.data).toMatchObject({
      subscription_id: paymentIds[1],
      field_id: paymentField,
      payment_intent_id: 'sub_123',
      amount_cents: 2500,
      recurring: true,
      interval: 'month',
    });
    expect(recurring.data).not.toHaveProperty('payment_id');
    // Runs of one pass work side by side: sort by the signer's role.
    const signatures = bodies('signature.signed')
      .map((body) => body.data)
      .sort((a, b) => a.signer_role.localeCompare(b.signer_role));
    expect(signatures).toEqual([
      expect.objectContaining({
        ...common,
        field_id: signatureField,
        signer_name: 'Ada Lovelace',
        // The invitee's email, whatever was typed (docs/decisions/0079).
        signer_email: oneTime.data.client_email,
        signer_role: 'client',
        signature_id: signed.body.signature?.id ?? expect.any(String),
      }),
      expect.objectContaining({
        field_id: signatureField,
        signer_name: 'Mia Partner',
        signer_email: 'mia@acme.example.com',
        signer_role: 'team_member',
      }),
    ]);
    const [late] = bodies('onboarding.overdue');
    expect(late.event).toBe('onboarding.overdue');
    expect(late.data).toMatchObject({
      ...common,
      due_on: '2026-11-22',
      due_timezone: 'UTC',
      due_date: expect.stringMatching(/^2026-11-22T23:59:59/),
    });
    expect(late.timestamp).toMatch(/^2026-11-2\dT\d{2}:\d{2}:\d{2}\.\d{3}000\+00:00$/);
  });
});
