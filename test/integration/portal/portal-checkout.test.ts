import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { checkoutCompleted, signedStripeDelivery } from '../../helpers/stripe-events.ts';
import { adminRequest } from '../../helpers/tenant.ts';
import { CHECKOUTS_PER_LINK_LIMIT } from '../../../services/onboardings/portal/portal-checkout-routes.ts';
import {
  advanceClock,
  createTenant,
  formTemplate,
  portal,
  sentOnboarding,
  type Tenant,
} from '../portal-fixtures.ts';

/*
 * POST /portal/v1/onboardings/:token/fields/:field_id/checkout over real HTTP, PostgreSQL
 * and stripe-mock. A tiny recording proxy in front of stripe-mock shows what the service
 * sent to Stripe (docs/decisions/0071-checkout-from-the-form.md).
 */

const WEBHOOK_SECRET = 'whsec_portal_checkout';
const ACCOUNT = 'acct_1PortalCheckout';

interface Sent {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  form: Record<string, string>;
}

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
]);

/** Forwards every request to stripe-mock and keeps what came in; `dropNext` closes that many connections unanswered. */
async function recordingProxy(target: string) {
  const sent: Sent[] = [];
  const state = { dropNext: 0 };
  const server: Server = createServer((incoming, answer) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const raw = Buffer.concat(chunks).toString();
      sent.push({
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        raw,
        form: Object.fromEntries(new URLSearchParams(raw)),
      });
      if (state.dropNext > 0) {
        state.dropNext -= 1;
        incoming.socket.destroy();
        return;
      }
      const headers = Object.entries(incoming.headers).flatMap(([name, value]) =>
        HOP_BY_HOP.has(name) || value === undefined ? [] : [[name, String(value)]],
      ) as [string, string][];
      void fetch(`${target}${incoming.url}`, {
        method: incoming.method,
        headers,
        ...(raw ? { body: raw } : {}),
      }).then(
        async (response) => {
          answer.writeHead(response.status, { 'content-type': 'application/json' });
          answer.end(await response.text());
        },
        (error: unknown) => {
          answer.writeHead(599, { 'content-type': 'text/plain' });
          answer.end(String(error));
        },
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    state,
    sessions: () => sent.filter((one) => one.method === 'POST' && one.path === '/v1/checkout/sessions'),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let proxy: Awaited<ReturnType<typeof recordingProxy>>;
let service: TestService;
let tenant: Tenant;
let retainer: string;

const template = () => {
  const base = formTemplate();
  const documents = base.steps!.find((step) => step.title === 'Documents')!;
  const deposit = documents.fields!.find((field) => field.label === 'Deposit')!;
  deposit.config = { ...deposit.config, description: 'Held until the first invoice' };
  deposit.translations = { 'de-DE': { label: 'Anzahlung', description: 'Bis zur ersten Rechnung' } };
  base.steps!.push({
    title: 'Retainer',
    sort_order: 4,
    is_optional: true,
    fields: [
      {
        type: 'payment',
        label: 'Monthly retainer',
        sort_order: 1,
        is_required: false,
        config: { amount_cents: 1500, currency: 'eur', interval: 'month' },
      },
    ],
  });
  return base;
};

beforeAll(async () => {
  proxy = await recordingProxy(inject('stripeApiUrl'));
  service = await startTestService({
    STRIPE_API_URL: proxy.url,
    STRIPE_SECRET_KEY: 'sk_test_portalcheckout',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  tenant = await createTenant(service, { template: template() });
  const step = tenant.template.template_steps.find((one) => one.title === 'Retainer')!;
  retainer = step.template_fields[0]!.id;
  const patched = await adminRequest(service, 'PATCH', `/teams/${tenant.teamId}`, {
    stripe_account_id: ACCOUNT,
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await proxy?.stop();
});
// A fresh minute for the per-minute limits of each test.
beforeEach(async () => {
  await advanceClock(service, 60);
});

const checkout = (token: string, fieldId: string, options: { body?: unknown; pin?: string } = {}) =>
  portal(service, token, 'POST', `/fields/${fieldId}/checkout`, options);

/** Delivers a signed Stripe event to POST /webhooks/stripe. */
async function deliver(event: Record<string, unknown>) {
  const payload = JSON.stringify(event);
  const answer = await fetch(`${service.url}/webhooks/stripe`, {
    method: 'POST',
    headers: signedStripeDelivery(payload, WEBHOOK_SECRET),
    body: payload,
  });
  expect(answer.status, await answer.text()).toBe(200);
}

describe('POST /portal/v1/onboardings/:token/fields/:field_id/checkout', () => {
  it('a one-time payment: a Checkout Session on the connected account, as the spec and the design say', async () => {
    const { token, onboardingId, client } = await sentOnboarding(service, tenant);
    const before = proxy.sessions().length;
    const answer = await checkout(token, tenant.ids.fields.deposit, { body: { locale: 'de-DE' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const [sent, ...more] = proxy.sessions().slice(before);
    expect(more).toEqual([]);
    const deposit = tenant.ids.fields.deposit;
    expect(sent!.headers['stripe-account']).toBe(ACCOUNT);
    expect(sent!.headers['idempotency-key']).toMatch(
      new RegExp(`^checkout:${onboardingId}:5000:usd:once:0:`),
    );
    const metadata = { onboarding_id: onboardingId, field_id: deposit, team_id: tenant.teamId };
    expect(sent!.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '5000',
      'line_items[0][price_data][product_data][name]': 'Anzahlung',
      'line_items[0][price_data][product_data][description]': 'Bis zur ersten Rechnung',
      'metadata[onboarding_id]': metadata.onboarding_id,
      'metadata[field_id]': metadata.field_id,
      'metadata[team_id]': metadata.team_id,
      'payment_intent_data[metadata][onboarding_id]': metadata.onboarding_id,
      'payment_intent_data[metadata][field_id]': metadata.field_id,
      'payment_intent_data[metadata][team_id]': metadata.team_id,
      customer_email: client.email,
      locale: 'de',
    });
    expect(Object.keys(sent!.form).some((key) => key.startsWith('subscription_data'))).toBe(false);
    expect(Object.keys(sent!.form).some((key) => key.includes('application_fee'))).toBe(false);
    const params = (url: string) => Object.fromEntries(new URL(url).searchParams);
    expect(params(sent!.form.success_url!)).toEqual({ outcome: 'success', field: deposit });
    expect(params(sent!.form.cancel_url!)).toEqual({ outcome: 'cancelled', field: deposit });
    expect(
      sent!.form.success_url!.startsWith(`${service.context.settings.PUBLIC_URL}/f/checkout-return?`),
    ).toBe(true);
    // The client's token reaches Stripe nowhere: not in the path, the headers or the body.
    expect(JSON.stringify(proxy.sent)).not.toContain(token);
  });

  it('the same attempt keeps its idempotency key; a failed payment makes the next one new; paid answers 409', async () => {
    const { token, onboardingId } = await sentOnboarding(service, tenant);
    const deposit = tenant.ids.fields.deposit;
    const before = proxy.sessions().length;
    expect((await checkout(token, deposit)).status).toBe(201);
    expect((await checkout(token, deposit)).status).toBe(201);
    const [first, second] = proxy.sessions().slice(before);
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    expect(first!.form.locale).toBe('auto');

    const failure = { onboardingId, fieldId: deposit, teamId: tenant.teamId, account: ACCOUNT, amount: 5000 };
    await deliver(
      checkoutCompleted({
        ...failure,
        mode: 'payment',
        paymentStatus: 'unpaid',
        type: 'checkout.session.async_payment_failed',
      }),
    );
    const failed = await portal(service, token, 'GET');
    expect(failed.body.onboarding.failed_payment_field_ids).toEqual([deposit]);
    expect((await checkout(token, deposit)).status).toBe(201);
    const retry = proxy.sessions().at(-1)!;
    expect(retry.headers['idempotency-key']).toMatch(
      new RegExp(`^checkout:${onboardingId}:5000:usd:once:1:`),
    );

    await deliver(checkoutCompleted({ ...failure, mode: 'payment' }));
    const paid = await portal(service, token, 'GET');
    expect(paid.body.onboarding.paid_field_ids).toEqual([deposit]);
    expect(paid.body.onboarding.failed_payment_field_ids).toEqual([]);
    const again = await checkout(token, deposit);
    expect([again.status, again.body.code, again.body.error]).toEqual([
      409,
      'payment_already_received',
      'This payment has already been received',
    ]);
  });

  it('a field with config.interval is a subscription, its metadata on the subscription', async () => {
    const { token, onboardingId } = await sentOnboarding(service, tenant);
    const before = proxy.sessions().length;
    const answer = await checkout(token, retainer, { body: { locale: 'fr-FR' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const [sent] = proxy.sessions().slice(before);
    expect(sent!.headers['idempotency-key']).toMatch(
      new RegExp(`^checkout:${onboardingId}:1500:eur:month:0:`),
    );
    expect(sent!.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '1500',
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][price_data][product_data][name]': 'Monthly retainer',
      'subscription_data[metadata][onboarding_id]': onboardingId,
      'subscription_data[metadata][field_id]': retainer,
      'subscription_data[metadata][team_id]': tenant.teamId,
      'metadata[field_id]': retainer,
      locale: 'fr',
    });
    expect(Object.keys(sent!.form).some((key) => key.startsWith('payment_intent_data'))).toBe(false);
  });

  it('refuses what is no payment field, a team without a ready account, and keeps the link and PIN rules', async () => {
    const { token } = await sentOnboarding(service, tenant, { send: { pin: '482915' } });
    const before = proxy.sent.length;
    const noPin = await checkout(token, tenant.ids.fields.deposit);
    expect([noPin.status, noPin.body.code]).toEqual([401, 'pin_required']);
    const wrongPin = await checkout(token, tenant.ids.fields.deposit, { pin: '000000' });
    expect([wrongPin.status, wrongPin.body.code]).toEqual([401, 'pin_required']);
    const text = await checkout(token, tenant.ids.fields.fullName, { pin: '482915' });
    expect([text.status, text.body.code]).toEqual([404, 'field_not_found']);
    const unknown = await checkout(token, 'no-such-field', { pin: '482915' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'field_not_found']);
    const inactive = await checkout('a'.repeat(64), tenant.ids.fields.deposit);
    expect([inactive.status, inactive.body.code]).toEqual([404, 'link_inactive']);
    expect(proxy.sent.length).toBe(before);
    expect((await checkout(token, tenant.ids.fields.deposit, { pin: '482915' })).status).toBe(201);

    const other = await createTenant(service, { template: formTemplate() });
    const unconnected = await sentOnboarding(service, other);
    const refused = await checkout(unconnected.token, other.ids.fields.deposit);
    expect([refused.status, refused.body.code]).toEqual([409, 'payment_not_connected']);
  });

  it('a service without STRIPE_SECRET_KEY takes no payments online: 409 payment_not_connected', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const offline = await startTestService({}, { sharedWith: service });
    try {
      const before = proxy.sent.length;
      const answer = await portal(offline, token, 'POST', `/fields/${tenant.ids.fields.deposit}/checkout`);
      expect([answer.status, answer.body.code]).toEqual([409, 'payment_not_connected']);
      expect(proxy.sent.length).toBe(before);
    } finally {
      await offline.stop();
    }
  });

  it('Stripe out of reach is 502 payment_processor_unavailable, retryable; never a 500', async () => {
    const { token } = await sentOnboarding(service, tenant);
    // The client's own tries: the first and the package's two network retries.
    proxy.state.dropNext = 3;
    const answer = await checkout(token, tenant.ids.fields.deposit);
    expect([answer.status, answer.body.code, answer.body.retryable]).toEqual([
      502,
      'payment_processor_unavailable',
      true,
    ]);
    proxy.state.dropNext = 0;
    expect((await checkout(token, tenant.ids.fields.deposit)).status).toBe(201);
  });

  it('a link takes a few checkouts a minute', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await checkout(token, tenant.ids.fields.deposit)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429]);
    await advanceClock(service, 60);
    expect((await checkout(token, tenant.ids.fields.deposit)).status).toBe(201);
  });

  it('60 checkouts of one link at once: the limit holds', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => checkout(token, tenant.ids.fields.deposit)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(CHECKOUTS_PER_LINK_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - CHECKOUTS_PER_LINK_LIMIT);
  });
});
