import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  recordStripeAccountUpdate,
  stripeAccountOfTeam,
  teamOfStripeAccount,
} from '../../../services/access/index.ts';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  adminRequest,
  apiRequest,
  createApiKey,
  createTeam,
  createTemplate,
  updateTeam,
  type TemplateInput,
} from '../../helpers/tenant.ts';
import { addMember, signUp, type Browser } from '../workspace-fixtures.ts';

/*
 * The team's Stripe account (Stripe Connect) over real HTTP, PostgreSQL and stripe-mock:
 * the operator's stripe_account_id, the workspace's connect, refresh and disconnect, the
 * state account.updated records, payments_connected following it, the send checks with it.
 * A tiny recording proxy in front of stripe-mock shows what the service sent to Stripe.
 */

interface Sent {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: Record<string, string>;
}

/** Forwards to stripe-mock and keeps each request; a path starting with `refuse` gets Stripe's 400. */
async function recordingProxy(target: string) {
  const sent: Sent[] = [];
  const state = { refuse: '' };
  const server: Server = createServer((incoming, answer) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const raw = Buffer.concat(chunks).toString();
      const path = incoming.url ?? '';
      sent.push({
        method: incoming.method ?? '',
        path,
        headers: incoming.headers,
        form: Object.fromEntries(new URLSearchParams(raw)),
      });
      if (state.refuse && path.startsWith(state.refuse)) {
        answer.writeHead(400, { 'content-type': 'application/json' });
        answer.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'No such account' } }));
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of [
        'authorization',
        'content-type',
        'idempotency-key',
        'stripe-version',
        'stripe-account',
      ])
        if (incoming.headers[name]) headers[name] = String(incoming.headers[name]);
      void fetch(`${target}${path}`, {
        method: incoming.method,
        headers,
        ...(raw ? { body: raw } : {}),
      }).then(
        async (response) => {
          answer.writeHead(response.status, { 'content-type': 'application/json' });
          answer.end(await response.text());
        },
        () => answer.destroy(),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, sent, state, stop: () => server.close() };
}

let proxy: Awaited<ReturnType<typeof recordingProxy>>;
let service: TestService;
let owner: Browser;
let member: Browser;
let teamId: string;
const password = 'correct horse battery staple';

beforeAll(async () => {
  proxy = await recordingProxy(inject('stripeApiUrl'));
  service = await startTestService({
    RATE_LIMITS: 'off',
    PUBLIC_URL: 'https://onboarding.example.com',
    STRIPE_API_URL: proxy.url,
    STRIPE_SECRET_KEY: 'sk_test_connect',
    STRIPE_WEBHOOK_SECRET: 'whsec_connect',
  });
  ({ owner, teamId } = await signUp(service, 'connect-owner@example.com', password, 'Connect Co'));
  ({ browser: member } = await addMember(service, owner, 'connect-member@example.com', 'member'));
}, 60_000);
afterAll(async () => {
  await service?.stop();
  proxy?.stop();
});

/** What Stripe says of an account, recorded as the account.updated handler does. */
async function accountUpdated(accountId: string, ready: boolean) {
  const recorded = await recordStripeAccountUpdate(service.context, {
    accountId,
    chargesEnabled: ready,
    detailsSubmitted: ready,
  });
  await awaitReadModels(service.context, recorded.position);
  return recorded;
}

const teamAnswer = async (teamId: string) =>
  (await adminRequest(service, 'PATCH', `/teams/${teamId}`, { unpaid: false })).body.team;

describe('operator: stripe_account_id', () => {
  it('setting one sets payments_connected and the state ready; null clears all; a malformed id is refused', async () => {
    const team = await createTeam(service);
    expect(team).toMatchObject({ stripe_account_id: null, payments_connected: false });
    const set = await adminRequest(service, 'PATCH', `/teams/${team.id}`, {
      stripe_account_id: 'acct_1Operator',
    });
    expect(set.status).toBe(200);
    expect(set.body.team).toMatchObject({ stripe_account_id: 'acct_1Operator', payments_connected: true });
    expect(await stripeAccountOfTeam(service.context.pool, team.id)).toEqual({
      stripe_account_id: 'acct_1Operator',
      stripe_account_state: 'ready',
    });
    expect(await teamOfStripeAccount(service.context.pool, 'acct_1Operator')).toBe(team.id);
    const bad = await adminRequest(service, 'PATCH', `/teams/${team.id}`, { stripe_account_id: 'cus_123' });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_body']);
    const cleared = await adminRequest(service, 'PATCH', `/teams/${team.id}`, { stripe_account_id: null });
    expect(cleared.body.team).toMatchObject({ stripe_account_id: null, payments_connected: false });
    expect(await stripeAccountOfTeam(service.context.pool, team.id)).toEqual({
      stripe_account_id: null,
      stripe_account_state: 'not_connected',
    });
    expect(await teamOfStripeAccount(service.context.pool, 'acct_1Operator')).toBeNull();
  });

  it('payments_connected alone still works as before', async () => {
    const team = await createTeam(service, { payments_connected: true });
    expect(team.payments_connected).toBe(true);
    const off = await adminRequest(service, 'PATCH', `/teams/${team.id}`, { payments_connected: false });
    expect(off.body.team).toMatchObject({ payments_connected: false, stripe_account_id: null });
  });
});

describe('account.updated: recordStripeAccountUpdate', () => {
  it('moves the state with charges_enabled and details_submitted, and payments_connected with it', async () => {
    const team = await createTeam(service);
    await adminRequest(service, 'PATCH', `/teams/${team.id}`, { stripe_account_id: 'acct_1Follows' });
    expect((await accountUpdated('acct_1Follows', false)).teamId).toBe(team.id);
    expect(await stripeAccountOfTeam(service.context.pool, team.id)).toMatchObject({
      stripe_account_state: 'details_missing',
    });
    expect((await teamAnswer(team.id)).payments_connected).toBe(false);
    await accountUpdated('acct_1Follows', true);
    expect(await stripeAccountOfTeam(service.context.pool, team.id)).toMatchObject({
      stripe_account_state: 'ready',
    });
    expect((await teamAnswer(team.id)).payments_connected).toBe(true);
    // The same state again records nothing.
    expect((await accountUpdated('acct_1Follows', true)).position).toBeUndefined();
  });

  it('an account no team has changes nothing', async () => {
    expect(await accountUpdated('acct_1Nobody', true)).toEqual({ teamId: null, position: undefined });
  });
});

describe('workspace: the plan and payments in the team settings', () => {
  it('the trial includes no payments; a pro team may, and sees its account state', async () => {
    const trial = (await member.call('GET', '/workspace/v1/team')).body.team;
    expect(trial.plan_includes).toEqual({
      api_access: true,
      automations: true,
      payments: false,
      monthly_onboardings: 25,
    });
    expect(trial.payments).toEqual({
      plan_allows: false,
      online: true,
      account_state: 'not_connected',
      stripe_account_id: null,
      connected: false,
    });
    await updateTeam(service, teamId, { plan: 'pro' });
    const pro = (await owner.call('GET', '/workspace/v1/team')).body.team;
    expect(pro.plan_includes).toMatchObject({ payments: true, monthly_onboardings: 100 });
    expect(pro.payments).toMatchObject({ plan_allows: true, account_state: 'not_connected' });
  });
});

const accountCreations = () =>
  proxy.sent.filter((sent) => sent.method === 'POST' && sent.path === '/v1/accounts');

describe('workspace: connect, refresh and disconnect the Stripe account', () => {
  it('a member may not connect, refresh or disconnect', async () => {
    for (const [method, path] of [
      ['POST', '/workspace/v1/team/stripe/connect'],
      ['POST', '/workspace/v1/team/stripe/refresh'],
      ['DELETE', '/workspace/v1/team/stripe'],
    ] as const) {
      const refused = await member.call(method, path);
      expect([refused.status, refused.body.code], path).toEqual([403, 'forbidden']);
    }
    expect(accountCreations()).toHaveLength(0);
  });

  it('an owner connects: one Express account however often clicked, details missing, then an account link', async () => {
    const clicks = await Promise.all([
      owner.call('POST', '/workspace/v1/team/stripe/connect'),
      owner.call('POST', '/workspace/v1/team/stripe/connect'),
    ]);
    for (const click of clicks) {
      expect(click.status, JSON.stringify(click.body)).toBe(201);
      expect(click.body.url).toMatch(/^https:\/\//);
    }
    const creations = accountCreations();
    expect(creations.length).toBeGreaterThanOrEqual(1);
    for (const creation of creations) {
      expect(creation.headers['idempotency-key']).toBe(`team-account:${teamId}`);
      expect(creation.form).toMatchObject({
        type: 'express',
        email: 'connect-owner@example.com',
        'business_profile[name]': 'Connect Co',
        'metadata[team_id]': teamId,
      });
    }
    const link = proxy.sent.find((sent) => sent.path === '/v1/account_links')!;
    expect(link.form).toMatchObject({
      type: 'account_onboarding',
      refresh_url: 'https://onboarding.example.com/workspace/settings/payments/refresh',
      return_url: 'https://onboarding.example.com/workspace/settings/payments/return',
    });
    const { payments } = (await owner.call('GET', '/workspace/v1/team')).body.team;
    expect(payments).toMatchObject({ account_state: 'details_missing', connected: false });
    expect(payments.stripe_account_id).toMatch(/^acct_/);
    expect(link.form.account).toBe(payments.stripe_account_id);
    const { rows } = await service.context.pool.query(
      `select 1 from events where stream_id = $1 and data->'changes' ? 'stripe_account_id'`,
      [`team-${teamId}`],
    );
    expect(rows).toHaveLength(1);
  });

  it('refresh reads the account at Stripe (stripe-mock: charges not enabled) and keeps it details missing', async () => {
    const before = proxy.sent.length;
    const refreshed = await owner.call('POST', '/workspace/v1/team/stripe/refresh');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.payments).toMatchObject({ account_state: 'details_missing', connected: false });
    expect(proxy.sent.slice(before).map((sent) => `${sent.method} ${sent.path}`)).toEqual([
      `GET /v1/accounts/${refreshed.body.payments.stripe_account_id}`,
    ]);
  });

  it('a Stripe refusal is 502 payment_processor_unavailable, and nothing changes', async () => {
    proxy.state.refuse = '/v1/account_links';
    try {
      const refused = await owner.call('POST', '/workspace/v1/team/stripe/connect');
      expect([refused.status, refused.body.code, refused.body.retryable]).toEqual([
        502,
        'payment_processor_unavailable',
        false,
      ]);
    } finally {
      proxy.state.refuse = '';
    }
    expect((await owner.call('GET', '/workspace/v1/team')).body.team.payments.account_state).toBe(
      'details_missing',
    );
  });

  it('account.updated makes it ready: a required payment is sent; details missing again: payment_not_connected', async () => {
    const { payments } = (await owner.call('GET', '/workspace/v1/team')).body.team;
    await accountUpdated(payments.stripe_account_id, true);
    expect((await owner.call('GET', '/workspace/v1/team')).body.team.payments).toMatchObject({
      account_state: 'ready',
      connected: true,
    });
    expect((await sendRequiredPayment(teamId)).status).toBe(200);
    await accountUpdated(payments.stripe_account_id, false);
    const refused = await sendRequiredPayment(teamId);
    expect([refused.status, refused.body.code]).toEqual([400, 'payment_not_connected']);
  });

  it('the plan check comes before the account: a trial team with a ready account gets payment_plan_required', async () => {
    const trial = await createTeam(service, { plan: 'pro_trial' });
    await adminRequest(service, 'PATCH', `/teams/${trial.id}`, { stripe_account_id: 'acct_1TrialReady' });
    const refused = await sendRequiredPayment(trial.id);
    expect([refused.status, refused.body.code]).toEqual([403, 'payment_plan_required']);
    const invalid = await sendRequiredPayment(trial.id, 0);
    expect([invalid.status, invalid.body.code]).toEqual([400, 'invalid_payment']);
  });

  it('disconnect forgets the account: not connected, and the account is no longer the team’s', async () => {
    const accountId = (await owner.call('GET', '/workspace/v1/team')).body.team.payments.stripe_account_id;
    const gone = await owner.call('DELETE', '/workspace/v1/team/stripe');
    expect(gone.status).toBe(200);
    expect(gone.body.payments).toEqual({
      plan_allows: true,
      online: true,
      account_state: 'not_connected',
      stripe_account_id: null,
      connected: false,
    });
    expect(await teamOfStripeAccount(service.context.pool, accountId)).toBeNull();
    expect((await accountUpdated(accountId, true)).teamId).toBeNull();
  });
});

const requiredPayment = (amount: number): TemplateInput => ({
  name: 'Retainer',
  steps: [
    {
      title: 'Pay',
      sort_order: 1,
      fields: [
        {
          type: 'payment',
          label: 'Retainer fee',
          sort_order: 1,
          is_required: true,
          config: { amount_cents: amount, currency: 'USD' },
        },
      ],
    },
  ],
});

/** A new onboarding of the team with a required payment, sent through the public API. */
async function sendRequiredPayment(team: string, amount = 5000) {
  const { apiKey } = await createApiKey(service, team);
  const template = await createTemplate(service, team, requiredPayment(amount));
  const client = await apiRequest(service, apiKey, 'POST', '/clients', {
    body: { name: 'Ada Lovelace', email: `ada-${amount}-${Date.now()}@example.com` },
  });
  const onboarding = await apiRequest(service, apiKey, 'POST', '/onboardings', {
    body: { template_id: template.id, client_id: client.body.client.id },
  });
  expect(onboarding.status, JSON.stringify(onboarding.body)).toBe(201);
  return apiRequest(service, apiKey, 'POST', `/onboardings/${onboarding.body.onboarding.id}/send`);
}

describe('without STRIPE_SECRET_KEY', () => {
  it('the team sees payments offline, and connect, refresh and disconnect answer 409 payments_unavailable', async () => {
    const offline = await startTestService({ RATE_LIMITS: 'off' });
    try {
      const { owner: offlineOwner } = await signUp(
        offline,
        'offline-owner@example.com',
        password,
        'Offline Co',
      );
      expect((await offlineOwner.call('GET', '/workspace/v1/team')).body.team.payments).toMatchObject({
        online: false,
        account_state: 'not_connected',
      });
      for (const [method, path] of [
        ['POST', '/workspace/v1/team/stripe/connect'],
        ['POST', '/workspace/v1/team/stripe/refresh'],
        ['DELETE', '/workspace/v1/team/stripe'],
      ] as const) {
        const refused = await offlineOwner.call(method, path);
        expect([refused.status, refused.body.code], path).toEqual([409, 'payments_unavailable']);
      }
    } finally {
      await offline.stop();
    }
  });
});
