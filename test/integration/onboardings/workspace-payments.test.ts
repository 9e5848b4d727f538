import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { onboardingStreamId } from '../../../services/onboardings/index.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest, createApiKey, updateTeam, type TeamInput } from '../../helpers/tenant.ts';
import { addMember, Browser, signUp } from '../workspace-fixtures.ts';
import { portal } from '../portal-fixtures.ts';
import { checkoutCompleted, signedStripeDelivery, stripeEvent } from '../../helpers/stripe-events.ts';

/*
 * Payments on the team's side over real HTTP and PostgreSQL: Mark as paid by an owner
 * answers a required payment (the client's step then submits and the onboarding
 * completes), a member may not, a second mark is 409, the timeline names who; the payments
 * list after a processor-confirmed payment (the operator route records it, as the webhook
 * would) and after Stripe's signed webhooks (a failed Checkout, a partial refund); a draft
 * made from a template with an invalid payment takes the fixed template and sends, and only
 * a draft refreshes.
 */

let service: TestService;
let owner: Browser;
let member: Browser;
let stranger: Browser;
let apiKey: string;
let templateId: string;
let teamId: string;
const ACCOUNT = 'acct_1TeamPaymentsPanel';
const WEBHOOK_SECRET = 'whsec_workspace_payments';
const ids = {
  about: randomUUID(),
  fullName: randomUUID(),
  pay: randomUUID(),
  retainer: randomUUID(),
  deposit: randomUUID(),
};

/** About you (Full name), then Payment: a required retainer (EUR 150.00) and an optional deposit. */
function definition(retainer: Record<string, unknown> = { amount_cents: 15000, currency: 'EUR' }) {
  return {
    name: 'Paid engagement',
    vertical: 'accounting',
    steps: [
      {
        id: ids.about,
        title: 'About you',
        sort_order: 0,
        fields: [
          { id: ids.fullName, type: 'short_text', label: 'Full name', sort_order: 0, is_required: true },
        ],
      },
      {
        id: ids.pay,
        title: 'Payment',
        sort_order: 1,
        fields: [
          {
            id: ids.retainer,
            type: 'payment',
            label: 'Retainer',
            sort_order: 0,
            is_required: true,
            config: retainer,
          },
          {
            id: ids.deposit,
            type: 'payment',
            label: 'Deposit',
            sort_order: 1,
            is_required: false,
            config: { amount_cents: 5000, currency: 'USD' },
          },
        ],
      },
    ],
  };
}

const api = (method: string, path: string, body?: unknown) =>
  apiRequest(service, apiKey, method, path, body === undefined ? {} : { body });

/** A draft onboarding of the template for a new client. */
async function draft(): Promise<string> {
  const client = await api('POST', '/clients', { name: 'Ada', email: `ada-${randomUUID()}@example.com` });
  expect(client.status).toBe(201);
  const created = await api('POST', '/onboardings', {
    template_id: templateId,
    client_id: client.body.client.id,
  });
  expect(created.status).toBe(201);
  return created.body.onboarding.id as string;
}

/** A sent onboarding and its client token. */
async function sent(): Promise<{ id: string; token: string }> {
  const id = await draft();
  expect((await api('POST', `/onboardings/${id}/send`, {})).status).toBe(200);
  const link = await adminRequest(service, 'GET', `/onboardings/${id}/link`);
  return { id, token: link.body.token as string };
}

const payments = async (id: string, who = owner) => {
  const answer = await who.call('GET', `/workspace/v1/onboardings/${id}/payments`);
  expect(answer.status).toBe(200);
  return answer.body as {
    payments: Array<Record<string, any>>;
    template_outdated: boolean;
    locale: string;
  };
};
const markPaid = (id: string, fieldId: string, body: unknown, who = owner) =>
  who.call('POST', `/workspace/v1/onboardings/${id}/fields/${fieldId}/mark-paid`, body);

beforeAll(async () => {
  service = await startTestService({
    RATE_LIMITS: 'off',
    STRIPE_API_URL: inject('stripeApiUrl'),
    STRIPE_SECRET_KEY: 'sk_test_workspace_payments',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  const team = await signUp(service, 'pay-owner@example.com', 'a long payments passphrase');
  owner = team.owner;
  teamId = team.teamId;
  ({ browser: member } = await addMember(service, owner, 'pay-member@example.com', 'member'));
  ({ owner: stranger } = await signUp(
    service,
    'pay-stranger@example.com',
    'a long stranger passphrase',
    'Other',
  ));
  // A connected account (ready, payments_connected) whose events reach this team's onboardings.
  await updateTeam(service, team.teamId, { plan: 'pro', stripe_account_id: ACCOUNT } as TeamInput);
  ({ apiKey } = await createApiKey(service, team.teamId));
  const created = await owner.call('POST', '/workspace/v1/templates', definition());
  expect(created.status).toBe(201);
  templateId = created.body.template.id;
}, 90_000);
afterAll(async () => {
  await service?.stop();
});

describe('Mark as paid', () => {
  let onboarding: { id: string; token: string };
  beforeAll(async () => {
    onboarding = await sent();
  });

  it('a member may not (403); a note is required, at most 500 characters (400); nothing changes', async () => {
    const refused = await markPaid(onboarding.id, ids.retainer, { note: 'Cash' }, member);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    for (const body of [{}, { note: '   ' }, { note: 'x'.repeat(501) }]) {
      const answer = await markPaid(onboarding.id, ids.retainer, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('invalid_body');
    }
    expect((await markPaid(onboarding.id, 'no-such-field', { note: 'Cash' })).status).toBe(404);
    expect((await markPaid(onboarding.id, ids.fullName, { note: 'Cash' })).body.code).toBe('field_not_found');
    expect((await markPaid(onboarding.id, ids.retainer, { note: 'Cash' }, stranger)).status).toBe(404);
    const [retainer] = (await payments(onboarding.id, member)).payments;
    expect(retainer).toMatchObject({
      field_id: ids.retainer,
      status: 'unpaid',
      amount_cents: 15000,
      currency: 'eur',
    });
  });

  it('an owner marks the required payment paid; a second mark is 409; the client then completes', async () => {
    const marked = await markPaid(onboarding.id, ids.retainer, { note: 'Bank transfer of 3 March' });
    expect(marked.status).toBe(201);
    expect(marked.body.payment).toMatchObject({
      field_id: ids.retainer,
      label: 'Retainer',
      status: 'marked_paid',
      amount_cents: 15000,
      currency: 'eur',
      note: 'Bank transfer of 3 March',
      marked_by: { name: 'Olive Owner' },
      payment_intent_id: null,
      dashboard_url: null,
    });
    const again = await markPaid(onboarding.id, ids.retainer, { note: 'Twice' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'payment_already_received',
      error: 'This payment has already been received',
    });

    const { token } = onboarding;
    expect(
      (await portal(service, token, 'PUT', `/answers/${ids.fullName}`, { body: { value: 'Ada' } })).status,
    ).toBe(200);
    expect((await portal(service, token, 'POST', `/steps/${ids.about}/submit`)).status).toBe(200);
    expect((await portal(service, token, 'POST', `/steps/${ids.pay}/submit`)).status).toBe(200);
    const after = await owner.call('GET', `/workspace/v1/onboardings/${onboarding.id}`);
    expect(after.body.onboarding.status).toBe('completed');
  });

  it('the timeline names who marked it paid, with the note; no payment.succeeded is recorded', async () => {
    const timeline = await member.call('GET', `/workspace/v1/onboardings/${onboarding.id}/timeline`);
    const entry = (timeline.body.entries as Array<Record<string, any>>).find(
      (one) => one.kind === 'payment_marked_paid',
    );
    expect(entry).toMatchObject({
      actor: { type: 'member', name: 'Olive Owner' },
      detail: { field: 'Retainer', amount_cents: 15000, currency: 'eur', note: 'Bank transfer of 3 March' },
    });
    const kinds = (timeline.body.entries as Array<{ kind: string }>).map((one) => one.kind);
    expect(kinds).not.toContain('payment.succeeded');
    expect(kinds).toContain('onboarding.completed');
  });
});

describe('Mark as paid at once', () => {
  it('of two racing marks of one field one wins, the other is 409; one event', async () => {
    const { id } = await sent();
    const results = await Promise.all([
      markPaid(id, ids.deposit, { note: 'Cash at the desk' }),
      markPaid(id, ids.deposit, { note: 'Cheque' }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual([201, 409]);
    const events = await service.context.eventStore.readStream(onboardingStreamId(id));
    expect(events.filter((event) => event.type === 'payment_marked_paid')).toHaveLength(1);
  });
});

describe('payments list', () => {
  it('shows a processor-confirmed payment with its Stripe ids and dashboard link; another team finds nothing', async () => {
    const { id } = await sent();
    const record = (body: Record<string, unknown>) =>
      adminRequest(service, 'POST', `/onboardings/${id}/payments`, body);
    expect(
      (await record({ field_id: ids.deposit, payment_intent_id: 'pi_deposit_1', amount_cents: 5000 })).status,
    ).toBe(201);
    const subscribed = await record({
      field_id: ids.retainer,
      payment_intent_id: 'sub_retainer_1',
      amount_cents: 15000,
      subscription_id: 'sub_retainer_1',
      interval: 'month',
    });
    expect(subscribed.status).toBe(201);

    const answer = await payments(id, member);
    expect(answer).toMatchObject({ locale: 'en-US', template_outdated: false });
    const [retainer, deposit] = answer.payments;
    expect(deposit).toMatchObject({
      field_id: ids.deposit,
      label: 'Deposit',
      status: 'paid',
      amount_cents: 5000,
      currency: 'usd',
      interval: null,
      payment_intent_id: 'pi_deposit_1',
      subscription_id: null,
      marked_by: null,
      dashboard_url: 'https://dashboard.stripe.com/test/payments/pi_deposit_1',
      refunded_cents: 0,
    });
    expect(deposit!.paid_at).toEqual(expect.any(String));
    expect(retainer).toMatchObject({
      status: 'paid',
      interval: 'month',
      subscription_id: 'sub_retainer_1',
      renewals: { count: 0 },
      dashboard_url: 'https://dashboard.stripe.com/test/subscriptions/sub_retainer_1',
    });
    expect((await markPaid(id, ids.deposit, { note: 'Cash' })).body.code).toBe('payment_already_received');
    expect((await stranger.call('GET', `/workspace/v1/onboardings/${id}/payments`)).status).toBe(404);
    expect((await new Browser(service).call('GET', `/workspace/v1/onboardings/${id}/payments`)).status).toBe(
      401,
    );
  });
});

describe('payments told by Stripe’s webhooks', () => {
  const deliver = async (event: Record<string, unknown>) => {
    const payload = JSON.stringify(event);
    const answer = await fetch(`${service.url}/webhooks/stripe`, {
      method: 'POST',
      body: payload,
      headers: signedStripeDelivery(payload, WEBHOOK_SECRET),
    });
    expect(answer.status).toBe(200);
  };

  it('a failed Checkout, a paid one and a partial refund show in words', async () => {
    const { id } = await sent();
    const checkout = { onboardingId: id, teamId, account: ACCOUNT, mode: 'payment' as const };
    await deliver(
      checkoutCompleted({
        ...checkout,
        fieldId: ids.retainer,
        amount: 15000,
        currency: 'eur',
        paymentIntentId: 'pi_retainer_failed',
        paymentStatus: 'unpaid',
        type: 'checkout.session.async_payment_failed',
      }),
    );
    await deliver(
      checkoutCompleted({
        ...checkout,
        fieldId: ids.deposit,
        amount: 5000,
        paymentIntentId: 'pi_deposit_paid',
      }),
    );
    await deliver(
      stripeEvent(
        'charge.refunded',
        {
          id: 'ch_deposit_paid',
          object: 'charge',
          payment_intent: 'pi_deposit_paid',
          amount: 5000,
          amount_refunded: 2000,
          refunded: false,
          metadata: {},
        },
        { account: ACCOUNT },
      ),
    );
    const [retainer, deposit] = (await payments(id)).payments;
    expect(retainer).toMatchObject({ status: 'failed', failed_attempts: 1, payment_intent_id: null });
    expect(deposit).toMatchObject({
      status: 'partially_refunded',
      refunded_cents: 2000,
      payment_intent_id: 'pi_deposit_paid',
      dashboard_url: 'https://dashboard.stripe.com/test/payments/pi_deposit_paid',
    });
  });
});

describe('refresh a draft from its template', () => {
  it('a draft made from a template with an invalid payment takes the fixed template and sends; a sent one is 409', async () => {
    const broken = definition({ currency: 'EUR' });
    const saved = await owner.call('PUT', `/workspace/v1/templates/${templateId}`, { ...broken, version: 1 });
    expect(saved.status).toBe(200);
    const id = await draft();
    const refused = await api('POST', `/onboardings/${id}/send`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_payment');
    expect((await payments(id)).template_outdated).toBe(false);

    const fixed = await owner.call('PUT', `/workspace/v1/templates/${templateId}`, {
      ...definition(),
      version: 2,
    });
    expect(fixed.status).toBe(200);
    expect((await payments(id)).template_outdated).toBe(true);
    expect((await stranger.call('POST', `/workspace/v1/onboardings/${id}/refresh-template`)).status).toBe(
      404,
    );

    const refreshed = await member.call('POST', `/workspace/v1/onboardings/${id}/refresh-template`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.onboarding).toMatchObject({ id, status: 'draft' });
    const retainer = refreshed.body.onboarding.template_snapshot.steps[1].fields[0];
    expect(retainer.config).toMatchObject({ amount_cents: 15000 });
    expect((await payments(id)).template_outdated).toBe(false);
    // Nothing more to take: the same answer, no second event.
    expect((await member.call('POST', `/workspace/v1/onboardings/${id}/refresh-template`)).status).toBe(200);

    expect((await api('POST', `/onboardings/${id}/send`, {})).status).toBe(200);
    const late = await owner.call('POST', `/workspace/v1/onboardings/${id}/refresh-template`);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('invalid_state');

    const timeline = await owner.call('GET', `/workspace/v1/onboardings/${id}/timeline`);
    const refreshes = (timeline.body.entries as Array<Record<string, any>>).filter(
      (one) => one.kind === 'onboarding_template_refreshed',
    );
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]!.actor).toMatchObject({ type: 'member', name: 'pay-member@example.com' });
  });
});
