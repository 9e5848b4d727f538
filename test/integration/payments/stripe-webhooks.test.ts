import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { stripeWebhooksApi } from '../../../services/app/apis/stripe-webhooks.ts';
import { retentionPurges } from '../../../services/app/retention-purges.ts';
import { runPurge } from '../../../shared/retention/batched-purge.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../helpers/https-receiver.ts';
import { registerSecrets } from '../../helpers/run-log.ts';
import type { TestService } from '../../helpers/service.ts';
import { checkoutCompleted, signedStripeDelivery, stripeEvent } from '../../helpers/stripe-events.ts';
import { adminRequest, request } from '../../helpers/tenant.ts';
import { advance, createRule, minutes, startOutboundService } from '../automation-fixtures.ts';
import {
  createOnboarding,
  createTenant,
  sendOnboarding,
  streamEvents,
  templateIds,
  type Tenant,
} from '../onboardings-fixtures.ts';

/*
 * POST /webhooks/stripe over real HTTP with real PostgreSQL: Stripe events as Stripe sends
 * them, signed with the stripe package's test header. One service for the file; each
 * case works on onboardings of its own.
 */

const WEBHOOK_SECRET = 'whsec_test_webhooks_of_the_payments_suite';
const ACCOUNT = 'acct_1TeamOfTheSuite';

let service: TestService;
let receiver: HttpsReceiver;
let tenant: Tenant;
let fields: { oneTime: string; subscription: string };

/** A template with a required one-time payment and a monthly subscription. */
const paymentTemplate = () => ({
  name: 'Engagement',
  steps: [
    {
      title: 'Pay',
      sort_order: 1,
      fields: [
        {
          type: 'payment',
          label: 'Setup fee',
          sort_order: 1,
          is_required: true,
          config: { amount_cents: 15000, currency: 'EUR' },
        },
        {
          type: 'payment',
          label: 'Monthly bookkeeping',
          sort_order: 2,
          is_required: false,
          config: { amount_cents: 2500, currency: 'EUR', interval: 'month' },
        },
      ],
    },
  ],
});

beforeAll(async () => {
  registerSecrets(WEBHOOK_SECRET);
  service = await startOutboundService({
    STRIPE_API_URL: inject('stripeApiUrl'),
    STRIPE_SECRET_KEY: 'sk_test_payments_suite',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  receiver = await startHttpsReceiver();
  tenant = await createTenant(service, { template: paymentTemplate() });
  const connected = await adminRequest(service, 'PATCH', `/teams/${tenant.teamId}`, {
    stripe_account_id: ACCOUNT,
  });
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
  const [step] = await templateIds(service, tenant, tenant.templateId);
  const [oneTime, subscription] = step!.fieldIds;
  fields = { oneTime: oneTime!, subscription: subscription! };
}, 60_000);

afterAll(async () => {
  await receiver?.close();
  await service?.stop();
});

/** A sent onboarding of the tenant. */
async function sentOnboarding(): Promise<string> {
  const { id } = await createOnboarding(service, tenant);
  const sent = await sendOnboarding(service, tenant, id);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return id;
}

/** Delivers `event` (or a raw body) signed as Stripe signs it, unless `headers` are given. */
async function deliver(
  event: Record<string, unknown> | string,
  options: { headers?: Record<string, string>; timestamp?: number; secret?: string } = {},
) {
  const payload = typeof event === 'string' ? event : JSON.stringify(event);
  const headers =
    options.headers ??
    signedStripeDelivery(payload, options.secret ?? WEBHOOK_SECRET, { timestamp: options.timestamp });
  const answer = await fetch(`${service.url}/webhooks/stripe`, { method: 'POST', body: payload, headers });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

const paymentsOf = async (onboardingId: string, type = 'payment.succeeded') =>
  (await streamEvents(service, onboardingId)).filter((event) => event.type === type);

const handled = async (eventId: string) =>
  (
    await service.database.pool.query<{ type: string; outcome: string }>(
      'select type, outcome from stripe_events_handled where event_id = $1',
      [eventId],
    )
  ).rows;

const oneTimeCheckout = (onboardingId: string, extra: Record<string, unknown> = {}) =>
  checkoutCompleted({
    onboardingId,
    fieldId: fields.oneTime,
    teamId: tenant.teamId,
    account: ACCOUNT,
    amount: 15000,
    currency: 'eur',
    mode: 'payment',
    ...extra,
  });

describe('checkout.session.completed', () => {
  it('records a one-time payment once, and the Payment received rule sends its fields', async () => {
    const rule = await createRule(service, tenant.teamId, {
      name: 'Payment received',
      trigger: 'payment.succeeded',
      action: { type: 'send_webhook', url: `${receiver.url}/payments` },
    });
    expect(rule.enabled).toBe(true);
    const onboardingId = await sentOnboarding();
    const event = oneTimeCheckout(onboardingId, { paymentIntentId: 'pi_test_one_time' });
    const answer = await deliver(event);
    expect(answer).toEqual({ status: 200, body: { received: true, outcome: 'recorded' } });
    const [paid, ...more] = await paymentsOf(onboardingId);
    expect(more).toEqual([]);
    expect(paid!.data).toMatchObject({
      field_id: fields.oneTime,
      payment_intent_id: 'pi_test_one_time',
      amount_cents: 15000,
      subscription_id: null,
      recurring: false,
      interval: null,
    });
    expect(paid!.metadata).toMatchObject({ causation_id: event.id, actor: 'stripe' });
    expect(await handled(event.id as string)).toEqual([
      { type: 'checkout.session.completed', outcome: 'recorded' },
    ]);

    await advance(service, minutes(5));
    const bodies = receiver.requests.filter((request) => request.path === '/payments');
    expect(bodies).toHaveLength(1);
    const body = bodies[0]!.json();
    expect(body.event).toBe('payment.succeeded');
    expect(body.data).toMatchObject({
      onboarding_id: onboardingId,
      payment_id: (paid!.data as { payment_id: string }).payment_id,
      field_id: fields.oneTime,
      payment_intent_id: 'pi_test_one_time',
      amount_cents: 15000,
    });
    expect(body.data).not.toHaveProperty('subscription_id');
    expect(body.data).not.toHaveProperty('recurring');
  });

  it('records a subscription: subscription_id, recurring, interval, the subscription as payment_intent_id', async () => {
    const onboardingId = await sentOnboarding();
    const event = checkoutCompleted({
      onboardingId,
      fieldId: fields.subscription,
      teamId: tenant.teamId,
      account: ACCOUNT,
      amount: 2500,
      mode: 'subscription',
      subscriptionId: 'sub_test_monthly',
    });
    expect((await deliver(event)).body.outcome).toBe('recorded');
    const [paid, ...more] = await paymentsOf(onboardingId);
    expect(more).toEqual([]);
    expect(paid!.data).toMatchObject({
      field_id: fields.subscription,
      payment_intent_id: 'sub_test_monthly',
      subscription_id: 'sub_test_monthly',
      amount_cents: 2500,
      recurring: true,
      interval: 'month',
    });

    // The Payment received rule (first case) sends the recurring payment's fields.
    await advance(service, minutes(5));
    const bodies = receiver.requests
      .filter((request) => request.path === '/payments')
      .map((request) => request.json())
      .filter((body) => body.data.onboarding_id === onboardingId);
    expect(bodies).toHaveLength(1);
    expect(bodies[0].data).toMatchObject({
      subscription_id: expect.any(String),
      field_id: fields.subscription,
      payment_intent_id: 'sub_test_monthly',
      amount_cents: 2500,
      recurring: true,
      interval: 'month',
    });
    expect(bodies[0].data).not.toHaveProperty('payment_id');
  });

  it('waits for an unpaid session, then records its async_payment_succeeded; a failure is its own fact', async () => {
    const onboardingId = await sentOnboarding();
    const session = { paymentIntentId: 'pi_test_async', sessionId: 'cs_test_async' };
    const unpaid = oneTimeCheckout(onboardingId, { ...session, paymentStatus: 'unpaid' });
    expect((await deliver(unpaid)).body.outcome).toBe('awaiting_payment');
    expect(await paymentsOf(onboardingId)).toEqual([]);
    const failed = oneTimeCheckout(onboardingId, {
      ...session,
      paymentStatus: 'unpaid',
      type: 'checkout.session.async_payment_failed',
    });
    expect((await deliver(failed)).body.outcome).toBe('recorded');
    const [failure] = await paymentsOf(onboardingId, 'payment_failed');
    expect(failure!.data).toMatchObject({
      checkout_session_id: 'cs_test_async',
      payment_intent_id: 'pi_test_async',
    });
    const succeeded = oneTimeCheckout(onboardingId, {
      paymentIntentId: 'pi_test_async_retry',
      type: 'checkout.session.async_payment_succeeded',
    });
    expect((await deliver(succeeded)).body.outcome).toBe('recorded');
    expect(await paymentsOf(onboardingId)).toHaveLength(1);
  });
});

describe('what changes nothing', () => {
  it('replayed, unsigned, wrongly signed, stale, foreign, unknown-type and unknown-onboarding events', async () => {
    const onboardingId = await sentOnboarding();
    const event = oneTimeCheckout(onboardingId);
    expect((await deliver(event)).body.outcome).toBe('recorded');
    const before = (await streamEvents(service, onboardingId)).length;

    expect(await deliver(event)).toEqual({ status: 200, body: { received: true, outcome: 'replayed' } });
    const payload = JSON.stringify(oneTimeCheckout(onboardingId, { paymentIntentId: 'pi_test_unsigned' }));
    const refusals = [
      await deliver(payload, { headers: { 'content-type': 'application/json' } }),
      await deliver(payload, { secret: 'whsec_not_the_endpoint_secret' }),
      await deliver(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
      await deliver(`${payload} `, { headers: signedStripeDelivery(payload, WEBHOOK_SECRET) }),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(400);
      expect(refusal.body).toMatchObject({ code: 'invalid_signature', request_id: expect.any(String) });
    }

    const foreign = oneTimeCheckout(onboardingId, { account: 'acct_1SomeoneElse', paymentIntentId: 'pi_x' });
    const unknownType = stripeEvent('payment_intent.created', { id: 'pi_x' }, { account: ACCOUNT });
    const unknownOnboarding = oneTimeCheckout(randomUUID(), { paymentIntentId: 'pi_y' });
    const noMetadata = stripeEvent('checkout.session.completed', { id: 'cs_z', mode: 'payment' });
    for (const [other, outcome] of [
      [foreign, 'foreign_account'],
      [unknownType, 'ignored_type'],
      [unknownOnboarding, 'unknown_onboarding'],
      [noMetadata, 'malformed'],
    ] as const) {
      expect(await deliver(other)).toEqual({ status: 200, body: { received: true, outcome } });
      expect(await handled(other.id as string)).toEqual([{ type: other.type, outcome }]);
    }
    expect((await streamEvents(service, onboardingId)).length).toBe(before);
  });

  it('30 concurrent deliveries of one event, and 30 events of one payment intent, record one payment', async () => {
    const [first, second] = [await sentOnboarding(), await sentOnboarding()];
    const event = oneTimeCheckout(first);
    const answers = await Promise.all(Array.from({ length: 30 }, () => deliver(event)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(200));
    expect(answers.filter((answer) => answer.body.outcome === 'recorded')).toHaveLength(1);
    expect(await paymentsOf(first)).toHaveLength(1);

    const events = Array.from({ length: 30 }, () =>
      oneTimeCheckout(second, { paymentIntentId: 'pi_test_thirty', sessionId: 'cs_test_thirty' }),
    );
    const distinct = await Promise.all(events.map((each) => deliver(each)));
    expect(distinct.map((answer) => answer.status)).toEqual(Array(30).fill(200));
    expect(distinct.filter((answer) => answer.body.outcome === 'recorded')).toHaveLength(1);
    expect(await paymentsOf(second)).toHaveLength(1);
  });
});

describe('after the payment', () => {
  it('records a renewal, the subscription end and a refund once each', async () => {
    const onboardingId = await sentOnboarding();
    const subscription = checkoutCompleted({
      onboardingId,
      fieldId: fields.subscription,
      teamId: tenant.teamId,
      account: ACCOUNT,
      amount: 2500,
      mode: 'subscription',
      subscriptionId: 'sub_test_renewed',
    });
    const oneTime = oneTimeCheckout(onboardingId, { paymentIntentId: 'pi_test_refunded' });
    expect((await deliver(subscription)).body.outcome).toBe('recorded');
    expect((await deliver(oneTime)).body.outcome).toBe('recorded');

    const invoice = (id: string, billingReason: string) =>
      stripeEvent(
        'invoice.paid',
        {
          id,
          object: 'invoice',
          billing_reason: billingReason,
          amount_paid: 2500,
          parent: {
            type: 'subscription_details',
            subscription_details: { subscription: 'sub_test_renewed', metadata: {} },
          },
        },
        { account: ACCOUNT },
      );
    expect((await deliver(invoice('in_test_first', 'subscription_create'))).body.outcome).toBe(
      'first_period',
    );
    const renewal = invoice('in_test_second', 'subscription_cycle');
    expect((await deliver(renewal)).body.outcome).toBe('recorded');
    // Stripe sends the same fact again under a new event id: recorded once.
    expect((await deliver(invoice('in_test_second', 'subscription_cycle'))).body.outcome).toBe(
      'already_recorded',
    );

    const ended = () =>
      stripeEvent(
        'customer.subscription.deleted',
        { id: 'sub_test_renewed', object: 'subscription', status: 'canceled', metadata: {} },
        { account: ACCOUNT },
      );
    expect((await deliver(ended())).body.outcome).toBe('recorded');
    expect((await deliver(ended())).body.outcome).toBe('already_recorded');

    const refund = (account = ACCOUNT) =>
      stripeEvent(
        'charge.refunded',
        {
          id: 'ch_test_refunded',
          object: 'charge',
          payment_intent: 'pi_test_refunded',
          amount: 15000,
          amount_refunded: 15000,
          refunded: true,
          metadata: {},
        },
        { account },
      );
    expect((await deliver(refund('acct_1SomeoneElse'))).body.outcome).toBe('foreign_account');
    expect((await deliver(refund())).body.outcome).toBe('recorded');
    expect((await deliver(refund())).body.outcome).toBe('already_recorded');

    const [renewed] = await paymentsOf(onboardingId, 'payment_renewed');
    expect(renewed!.data).toMatchObject({
      field_id: fields.subscription,
      subscription_id: 'sub_test_renewed',
      invoice_id: 'in_test_second',
      amount_cents: 2500,
    });
    expect(await paymentsOf(onboardingId, 'payment_renewed')).toHaveLength(1);
    expect(await paymentsOf(onboardingId, 'payment_subscription_ended')).toHaveLength(1);
    const refunds = await paymentsOf(onboardingId, 'payment_refunded');
    expect(refunds.map((event) => event.data)).toEqual([
      expect.objectContaining({
        field_id: fields.oneTime,
        payment_intent_id: 'pi_test_refunded',
        charge_id: 'ch_test_refunded',
        amount_refunded_cents: 15000,
        fully_refunded: true,
      }),
    ]);
    expect(await paymentsOf(onboardingId)).toHaveLength(2);
  });
});

describe('account.updated', () => {
  it("keeps the team's account state and payments_connected true to Stripe's", async () => {
    const team = await createTenant(service);
    const account = 'acct_1AccountUpdates';
    expect(
      (await adminRequest(service, 'PATCH', `/teams/${team.teamId}`, { stripe_account_id: account })).status,
    ).toBe(200);
    const updated = (chargesEnabled: boolean) =>
      stripeEvent(
        'account.updated',
        { id: account, object: 'account', charges_enabled: chargesEnabled, details_submitted: true },
        { account },
      );
    expect((await deliver(updated(false))).body.outcome).toBe('recorded');
    /** The teams read model once it has applied the team's latest event. */
    const teamOf = async () => {
      const events = await service.context.eventStore.readStream(`team-${team.teamId}`);
      expect(await service.context.projections.waitForPosition(events.at(-1)!.position)).toBe(true);
      const { rows } = await service.database.pool.query(
        'select stripe_account_state, payments_connected from teams where id = $1',
        [team.teamId],
      );
      return rows[0];
    };
    expect(await teamOf()).toEqual({ stripe_account_state: 'details_missing', payments_connected: false });
    expect((await deliver(updated(true))).body.outcome).toBe('recorded');
    expect(await teamOf()).toEqual({ stripe_account_state: 'ready', payments_connected: true });
    expect((await deliver(updated(true))).body.outcome).toBe('unchanged');
    const unknown = stripeEvent(
      'account.updated',
      { id: 'acct_1NoTeam', object: 'account', charges_enabled: true, details_submitted: true },
      { account: 'acct_1NoTeam' },
    );
    expect((await deliver(unknown)).body.outcome).toBe('unknown_account');
  });
});

describe('the endpoint', () => {
  it('is off (404) without STRIPE_WEBHOOK_SECRET, and takes JSON only', async () => {
    const app = Fastify();
    await app.register(stripeWebhooksApi, {
      prefix: '/webhooks',
      context: {
        ...service.context,
        settings: { ...service.context.settings, STRIPE_WEBHOOK_SECRET: undefined },
      },
    });
    const payload = JSON.stringify(stripeEvent('account.updated', { id: ACCOUNT }));
    const off = await app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      payload,
      headers: signedStripeDelivery(payload, WEBHOOK_SECRET),
    });
    expect(off.statusCode).toBe(404);
    await app.close();
    const text = await request(service, 'POST', '/webhooks/stripe', {
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
  });

  it('forgets a handled event id after PROCESSED_EVENTS_RETENTION_DAYS', async () => {
    const purge = retentionPurges.find((each) => each.table === 'stripe_events_handled')!;
    const { pool } = service.database;
    const now = service.clock.now();
    const days = service.context.settings.PROCESSED_EVENTS_RETENTION_DAYS;
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 24 * 3600 * 1000);
    await pool.query(
      `insert into stripe_events_handled (event_id, type, outcome, handled_at)
       values ('evt_retention_old', 'invoice.paid', 'recorded', $1), ('evt_retention_kept', 'invoice.paid', 'recorded', $2)`,
      [at(days + 1), at(days - 1)],
    );
    await runPurge(pool, purge, service.context.settings, now);
    const { rows } = await pool.query<{ event_id: string }>(
      "select event_id from stripe_events_handled where event_id like 'evt_retention_%' order by event_id",
    );
    expect(rows.map((row) => row.event_id)).toEqual(['evt_retention_kept']);
  });
});
