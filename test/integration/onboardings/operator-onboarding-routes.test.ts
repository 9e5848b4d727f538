import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { addMember, adminRequest, apiRequest, removeMember, request } from '../../helpers/tenant.ts';
import {
  advanceClock,
  createClient,
  createOnboarding,
  createTenant,
  drain,
  operatorLink,
  portal,
  send,
  sentOnboarding,
  type Tenant,
} from '../portal-fixtures.ts';
import { formLink } from '../../helpers/client-link.ts';

/**
 * Operator routes of onboardings (operator-and-portal-api.md, Operator API): link,
 * payments, countersign, archive, emails, clock/advance and work/drain.
 */

let service: TestService;
let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  tenant = await createTenant(service, { email_sender_name: 'Acme Accounting' });
  other = await createTenant(service);
});

afterAll(async () => {
  await service?.stop();
});

const feed = async (type: string) =>
  (await apiRequest(service, tenant.apiKey, 'GET', `/events?type=${type}`)).body.events as {
    onboarding_id: string;
    data: Record<string, unknown>;
  }[];

const targetUnavailable = {
  error: 'Onboarding not found',
  code: 'target_unavailable',
  message: 'Onboarding not found',
  retryable: false,
  request_id: expect.any(String),
};

describe('GET /admin/v1/onboardings/:id/link', () => {
  it('the active token and its portal URL; a resend replaces them', async () => {
    const client = await createClient(service, tenant);
    const draft = await createOnboarding(service, tenant, client.id);
    expect((await operatorLink(service, draft.id)).body).toEqual({
      token: null,
      url: null,
      pin_required: false,
    });

    await send(service, tenant, draft.id);
    const first = await operatorLink(service, draft.id);
    expect(first.status).toBe(200);
    expect(first.body.token).toMatch(/^[0-9a-f]{64}$/);
    expect(first.body.url).toBe(formLink(service.context.settings.PUBLIC_URL, first.body.token!));
    expect((await portal(service, first.body.token!, 'GET')).status).toBe(200);

    await send(service, tenant, draft.id);
    const second = await operatorLink(service, draft.id);
    expect(second.body.token).not.toBe(first.body.token);
    expect((await portal(service, first.body.token!, 'GET')).body.code).toBe('link_inactive');
  });

  it('null once the link stops working (cancelled)', async () => {
    const { onboardingId } = await sentOnboarding(service, tenant);
    await apiRequest(service, tenant.apiKey, 'PATCH', `/onboardings/${onboardingId}`, {
      body: { status: 'cancelled' },
    });
    expect((await operatorLink(service, onboardingId)).body).toMatchObject({ token: null, url: null });
  });

  it('404 target_unavailable for an unknown onboarding; 400 invalid_body for a non-UUID id; 401 without the admin token', async () => {
    const unknown = await operatorLink(service, randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(targetUnavailable);
    const bad = await operatorLink(service, 'nope');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_body' });
    const anonymous = await request(service, 'GET', `/admin/v1/onboardings/${randomUUID()}/link`);
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /admin/v1/onboardings/:id/payments', () => {
  it('201 records a one-time payment: payment.succeeded; the same payment intent again answers 200 with it', async () => {
    const { onboardingId } = await sentOnboarding(service, tenant);
    const body = { field_id: tenant.ids.fields.deposit, amount_cents: 5000, payment_intent_id: 'pi_123' };
    const paid = await adminRequest(service, 'POST', `/onboardings/${onboardingId}/payments`, body);
    expect(paid.status).toBe(201);
    expect(paid.body).toEqual({
      payment: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        onboarding_id: onboardingId,
        field_id: tenant.ids.fields.deposit,
        amount_cents: 5000,
        payment_intent_id: 'pi_123',
        subscription_id: null,
        recurring: false,
        interval: null,
        paid_at: service.clock.now().toISOString(),
      },
    });
    const again = await adminRequest(service, 'POST', `/onboardings/${onboardingId}/payments`, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(paid.body);
    const events = (await feed('payment.succeeded')).filter((event) => event.onboarding_id === onboardingId);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      amount_cents: 5000,
      payment_intent_id: 'pi_123',
      recurring: false,
    });
  });

  it('a recurring subscription when subscription_id (and interval) are given', async () => {
    const { onboardingId } = await sentOnboarding(service, tenant);
    const paid = await adminRequest(service, 'POST', `/onboardings/${onboardingId}/payments`, {
      field_id: tenant.ids.fields.deposit,
      amount_cents: 1200,
      payment_intent_id: 'pi_sub_1',
      subscription_id: 'sub_42',
      interval: 'month',
    });
    expect(paid.status).toBe(201);
    expect(paid.body.payment).toMatchObject({
      subscription_id: 'sub_42',
      interval: 'month',
      recurring: true,
    });
    const event = (await feed('payment.succeeded')).find((item) => item.onboarding_id === onboardingId)!;
    expect(event.data).toMatchObject({ subscription_id: 'sub_42', recurring: true, interval: 'month' });
  });

  it('errors: 400 invalid_body, 404 target_unavailable / field_not_found, 409 invalid_state before a send', async () => {
    const { onboardingId } = await sentOnboarding(service, tenant);
    const url = `/onboardings/${onboardingId}/payments`;
    const valid = { field_id: tenant.ids.fields.deposit, amount_cents: 100, payment_intent_id: 'pi_x' };
    for (const body of [
      {},
      { ...valid, amount_cents: 0 },
      { ...valid, amount_cents: 1.5 },
      { ...valid, payment_intent_id: '' },
      { ...valid, interval: 'month' },
    ]) {
      const answer = await adminRequest(service, 'POST', url, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('invalid_body');
    }
    const notPayment = await adminRequest(service, 'POST', url, {
      ...valid,
      field_id: tenant.ids.fields.fullName,
    });
    expect(notPayment.status).toBe(404);
    expect(notPayment.body.code).toBe('field_not_found');
    const unknown = await adminRequest(service, 'POST', `/onboardings/${randomUUID()}/payments`, valid);
    expect(unknown.body).toEqual(targetUnavailable);

    const client = await createClient(service, tenant);
    const draft = await createOnboarding(service, tenant, client.id);
    const early = await adminRequest(service, 'POST', `/onboardings/${draft.id}/payments`, valid);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('invalid_state');

    await adminRequest(service, 'POST', `/onboardings/${onboardingId}/archive`);
    const archived = await adminRequest(service, 'POST', url, valid);
    expect(archived.status).toBe(404);
    expect(archived.body.code).toBe('target_unavailable');
  });
});

describe('POST /admin/v1/onboardings/:id/countersign', () => {
  it('201: signature.signed with signer_role team_member', async () => {
    const member = await addMember(service, tenant.teamId, {
      name: 'Paula Partner',
      email: 'paula@acme.test',
    });
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    await portal(service, token, 'GET'); // in progress
    const signed = await adminRequest(service, 'POST', `/onboardings/${onboardingId}/countersign`, {
      field_id: tenant.ids.fields.agreement,
      member_id: member.id,
    });
    expect(signed.status).toBe(201);
    expect(signed.body).toEqual({
      signature: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        onboarding_id: onboardingId,
        field_id: tenant.ids.fields.agreement,
        signer_name: 'Paula Partner',
        signer_email: 'paula@acme.test',
        signer_role: 'team_member',
        member_id: member.id,
        signed_at: service.clock.now().toISOString(),
      },
    });
    const event = (await feed('signature.signed')).find((item) => item.onboarding_id === onboardingId)!;
    expect(event.data).toMatchObject({ signer_role: 'team_member', member_id: member.id });
    // The countersignature keeps its evidence (docs/decisions/0079); the feed leaves it out.
    expect(event.data).not.toHaveProperty('evidence');
    const recorded = (await service.context.eventStore.readStream(`onboarding-${onboardingId}`)).find(
      (one) => one.type === 'signature.signed',
    )!;
    expect((recorded.data as { evidence?: unknown }).evidence).toMatchObject({
      consent_text: 'I agree to the engagement terms.',
      answers_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      answers_version: 1,
    });
    // A countersignature is not the client's response.
    expect((await portal(service, token, 'GET')).body.onboarding.responses).toEqual([]);
  });

  it('errors: member_not_found, field_not_found, invalid_state, target_unavailable, invalid_body', async () => {
    const member = await addMember(service, tenant.teamId);
    const gone = await addMember(service, tenant.teamId);
    await removeMember(service, tenant.teamId, gone.id);
    const foreign = await addMember(service, other.teamId);
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const url = `/onboardings/${onboardingId}/countersign`;

    // Sent, not yet opened: not in progress.
    const early = await adminRequest(service, 'POST', url, {
      field_id: tenant.ids.fields.agreement,
      member_id: member.id,
    });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('invalid_state');
    await portal(service, token, 'GET');

    for (const memberId of [gone.id, foreign.id, randomUUID()]) {
      const answer = await adminRequest(service, 'POST', url, {
        field_id: tenant.ids.fields.agreement,
        member_id: memberId,
      });
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: 'member_not_found', error: 'Member not found' });
    }
    const notSignature = await adminRequest(service, 'POST', url, {
      field_id: tenant.ids.fields.fullName,
      member_id: member.id,
    });
    expect(notSignature.status).toBe(404);
    expect(notSignature.body.code).toBe('field_not_found');
    const invalid = await adminRequest(service, 'POST', url, {
      field_id: tenant.ids.fields.agreement,
      member_id: 'x',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('invalid_body');
    const unknown = await adminRequest(service, 'POST', `/onboardings/${randomUUID()}/countersign`, {
      field_id: tenant.ids.fields.agreement,
      member_id: member.id,
    });
    expect(unknown.body).toEqual(targetUnavailable);
  });
});

describe('POST /admin/v1/onboardings/:id/archive', () => {
  it('200 with archived_at; archived onboardings answer 404 target_unavailable to PATCH and send', async () => {
    const { onboardingId } = await sentOnboarding(service, tenant);
    const archived = await adminRequest(service, 'POST', `/onboardings/${onboardingId}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.onboarding).toMatchObject({
      id: onboardingId,
      status: 'sent',
      archived_at: service.clock.now().toISOString(),
      template_snapshot: expect.any(Object),
    });
    const again = await adminRequest(service, 'POST', `/onboardings/${onboardingId}/archive`);
    expect(again.status).toBe(200);
    expect(again.body.onboarding.archived_at).toBe(archived.body.onboarding.archived_at);

    const patch = await apiRequest(service, tenant.apiKey, 'PATCH', `/onboardings/${onboardingId}`, {
      body: { status: 'cancelled' },
    });
    expect(patch.status).toBe(404);
    expect(patch.body.code).toBe('target_unavailable');
    const resend = await apiRequest(service, tenant.apiKey, 'POST', `/onboardings/${onboardingId}/send`, {
      body: {},
    });
    expect(resend.status).toBe(404);
    expect(resend.body.code).toBe('target_unavailable');

    const listed = await apiRequest(service, tenant.apiKey, 'GET', '/onboardings?archived=only');
    expect(listed.body.onboardings.map((item: { id: string }) => item.id)).toContain(onboardingId);
    const active = await apiRequest(service, tenant.apiKey, 'GET', '/onboardings?limit=100');
    expect(active.body.onboardings.map((item: { id: string }) => item.id)).not.toContain(onboardingId);
  });

  it('404 target_unavailable for an unknown onboarding', async () => {
    const answer = await adminRequest(service, 'POST', `/onboardings/${randomUUID()}/archive`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(targetUnavailable);
  });
});

describe('GET /admin/v1/teams/:team_id/emails', () => {
  it('the team’s emails, newest first', async () => {
    const emailsTeam = await createTenant(service, { email_sender_name: 'Bright Books' });
    const { client, onboardingId } = await sentOnboarding(service, emailsTeam, {
      client: { name: 'Mia Example', email: 'mia@example.com' },
    });
    await send(service, emailsTeam, onboardingId);
    const answer = await adminRequest(service, 'GET', `/teams/${emailsTeam.teamId}/emails`);
    expect(answer.status).toBe(200);
    expect(answer.body.emails).toHaveLength(2);
    const [newest, oldest] = answer.body.emails;
    expect(newest).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'invite',
      to: client.email,
      from_name: 'Bright Books',
      subject: expect.stringContaining('Bright Books'),
      text: expect.stringContaining('Hello Mia Example'),
      onboarding_id: onboardingId,
      created_at: service.clock.now().toISOString(),
      status: 'queued',
    });
    const { body: link } = await operatorLink(service, onboardingId);
    expect(newest.text).toContain(link.token);
    expect(oldest.text).not.toContain(link.token);
    // Other teams' emails are not listed.
    expect((await adminRequest(service, 'GET', `/teams/${other.teamId}/emails`)).body.emails).toEqual([]);
  });

  it('404 team_not_found for an unknown team', async () => {
    const answer = await adminRequest(service, 'GET', `/teams/${randomUUID()}/emails`);
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('team_not_found');
  });
});

describe('POST /admin/v1/clock/advance and POST /admin/v1/work/drain', () => {
  it('moves the service clock by `seconds` and answers the new time', async () => {
    const before = service.clock.now().getTime();
    const answer = await advanceClock(service, 90);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ now: new Date(before + 90_000).toISOString() });
    expect(service.clock.now().getTime()).toBe(before + 90_000);
    for (const body of [{}, { seconds: -1 }, { seconds: 'ten' }]) {
      const bad = await adminRequest(service, 'POST', '/clock/advance', body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.code).toBe('invalid_body');
    }
  });

  it('drain answers 200 once the read models, consumers and due timers have settled', async () => {
    const answer = await drain(service);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      drained: true,
      position: expect.stringMatching(/^\d+$/),
      handled: expect.any(Number),
    });
    const head = await service.database.pool.query('select max(position)::text as position from events');
    expect(answer.body.position).toBe(head.rows[0].position);
  });
});

describe('without TEST_CLOCK', () => {
  it('POST /admin/v1/clock/advance answers 404', async () => {
    const real = await startTestService({ RATE_LIMITS: 'off', TEST_CLOCK: 'off' });
    try {
      const answer = await adminRequest(real, 'POST', '/clock/advance', { seconds: 10 });
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('not_found');
      expect((await adminRequest(real, 'POST', '/work/drain')).status).toBe(200);
    } finally {
      await real.stop();
    }
  });
});
