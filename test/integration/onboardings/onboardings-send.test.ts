import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashClientToken, verifyPin } from '../../../services/onboardings/link-secrets.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  createTeamWithKey,
  createTemplate,
  updateTeam,
  type TeamInput,
  type TemplateInput,
} from '../../helpers/tenant.ts';
import {
  archive,
  createClient,
  createOnboarding,
  createTenant,
  eraseClient,
  expire,
  invites,
  latestToken,
  onboardingRequest,
  openLink,
  saveAnswer,
  sendOnboarding,
  streamEvents,
  submitStep,
  templateIds,
  timers,
  type Tenant,
} from '../onboardings-fixtures.ts';
import { formLink } from '../../helpers/client-link.ts';

let service: TestService;
let tenant: Tenant;
const PUBLIC_URL = 'https://forms.example.com';

beforeAll(async () => {
  service = await startTestService({ PUBLIC_URL });
  service.clock.set(new Date('2025-03-10T15:00:00.000Z'));
  tenant = await createTenant(service, { email_sender_name: 'Acme Accounting' });
});
afterAll(async () => service?.stop());

const send = (id: string, body?: unknown, on: Tenant = tenant) => sendOnboarding(service, on, id, body);
const status = async (id: string, on: Tenant = tenant) =>
  (await onboardingRequest(service, on, 'GET', `/${id}?archived=all`)).body.onboarding.status;
const usageRows = async (teamId: string) =>
  (await service.database.pool.query('select * from onboarding_send_usage where team_id = $1', [teamId]))
    .rows;

const full = (code: string) => ({
  error: expect.any(String),
  code,
  message: expect.any(String),
  retryable: false,
  request_id: expect.any(String),
});

async function inProgress(on: Tenant = tenant) {
  const { id } = await createOnboarding(service, on);
  expect((await send(id, undefined, on)).status).toBe(200);
  await openLink(service, id, await latestToken(service, id));
  return id;
}

describe('send: the transition table', () => {
  it('draft --send--> sent: 200 success, queued, command_id; onboarding.sent; invite queued; reminders; counted once', async () => {
    const created = await createOnboarding(service, tenant);
    const answer = await send(created.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, queued: true, command_id: expect.any(String) });
    expect(answer.body.command_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await status(created.id)).toBe('sent');

    const events = await streamEvents(service, created.id);
    const sent = events.at(-1)!;
    expect(sent.type).toBe('onboarding.sent');
    expect(sent.metadata).toMatchObject({
      command_id: answer.body.command_id,
      request_id: answer.headers.get('x-request-id'),
      api_key_id: tenant.apiKeyId,
      idempotency_key: null,
    });
    expect(sent.data).toMatchObject({ send_number: 1, resend: false, counted: true, usage_month: '2025-03' });

    // The invite: one row in the outbox, with a new link whose token replaced the create token.
    const [invite, ...more] = await invites(service, created.id);
    expect(more).toEqual([]);
    const client = (await onboardingRequest(service, tenant, 'GET', `/${created.id}`)).body.onboarding
      .clients;
    expect(invite).toMatchObject({
      team_id: tenant.teamId,
      kind: 'invite',
      to: client.email,
      from_name: 'Acme Accounting',
      subject: 'Acme Accounting invited you to fill in Tax intake',
      status: 'queued',
    });
    const token = await latestToken(service, created.id);
    expect(invite!.text).toContain(formLink(PUBLIC_URL, token));
    expect(invite!.text).toContain('Hello Ada Lovelace,');
    expect(token).not.toBe(created.token);
    expect(sent.data.token_hash).toBe(hashClientToken(token));
    const links = await service.database.pool.query(
      'select token_hash, deactivated_at from onboarding_links where onboarding_id = $1 order by send_number',
      [created.id],
    );
    expect(links.rows.map((row) => [row.token_hash, row.deactivated_at === null])).toEqual([
      [hashClientToken(created.token), false],
      [hashClientToken(token), true],
    ]);

    // Reminders 3 and 7 days after the send (the default schedule); a reminder's key is its send and time.
    expect(await timers(service, created.id)).toEqual([
      {
        kind: 'reminder',
        key: 'reminder:1:2025-03-13T15:00:00.000Z',
        due_at: new Date('2025-03-13T15:00:00.000Z'),
        status: 'scheduled',
      },
      {
        kind: 'reminder',
        key: 'reminder:1:2025-03-17T15:00:00.000Z',
        due_at: new Date('2025-03-17T15:00:00.000Z'),
        status: 'scheduled',
      },
    ]);
    expect(await usageRows(tenant.teamId)).toHaveLength(1);
  });

  it('sent --send--> sent (resend): new link, earlier tokens deactivated, another invite, not counted again', async () => {
    const { id } = await createOnboarding(service, tenant);
    await send(id);
    const first = await latestToken(service, id);
    const usage = (await usageRows(tenant.teamId)).length;
    service.clock.advance(3600);
    const answer = await send(id);
    expect(answer.status).toBe(200);
    expect(await status(id)).toBe('sent');
    const second = await latestToken(service, id);
    expect(second).not.toBe(first);
    expect(await invites(service, id)).toHaveLength(2);
    expect(await usageRows(tenant.teamId)).toHaveLength(usage);
    const [event] = (await streamEvents(service, id)).slice(-1);
    expect(event!.data).toMatchObject({ send_number: 2, resend: true, counted: false });
    const active = await service.database.pool.query(
      'select token_hash from onboarding_links where onboarding_id = $1 and deactivated_at is null',
      [id],
    );
    expect(active.rows).toEqual([{ token_hash: hashClientToken(second) }]);
    // The old link no longer opens.
    await expect(openLink(service, id, first)).rejects.toMatchObject({ code: 'link_inactive' });
    // The first schedule is replaced by the second.
    const schedule = await timers(service, id);
    for (const timer of schedule) expect(timer.key).toBe(timer.key.slice(0, 11) + timer.due_at.toISOString());
    expect(schedule.map((timer) => [timer.key.slice(0, 10), timer.status])).toEqual([
      ['reminder:1', 'cancelled'],
      ['reminder:2', 'scheduled'],
      ['reminder:1', 'cancelled'],
      ['reminder:2', 'scheduled'],
    ]);
  });

  it('in_progress --send--> in_progress when no answer was saved in the last 5 minutes', async () => {
    const id = await inProgress();
    const answer = await send(id);
    expect(answer.status).toBe(200);
    expect(await status(id)).toBe('in_progress');
  });

  it('in_progress with an answer saved within 5 minutes: 409 requires_force (exact body); force: true sends', async () => {
    const id = await inProgress();
    const token = await latestToken(service, id);
    const [step] = await templateIds(service, tenant, tenant.templateId);
    await saveAnswer(service, id, token, step!.fieldIds[0]!);
    service.clock.advance(4 * 60 + 59);
    const refused = await send(id);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: expect.any(String),
      code: 'requires_force',
      requires_force: true,
      retryable: false,
    });
    expect(await invites(service, id)).toHaveLength(1);
    const forced = await send(id, { force: true });
    expect(forced.status).toBe(200);
    expect(await status(id)).toBe('in_progress');
    expect((await streamEvents(service, id)).at(-1)!.data).toMatchObject({
      forced: true,
      status: 'in_progress',
    });
  });

  it('5 minutes after the last saved answer no force is needed', async () => {
    const id = await inProgress();
    const [step] = await templateIds(service, tenant, tenant.templateId);
    await saveAnswer(service, id, await latestToken(service, id), step!.fieldIds[0]!);
    service.clock.advance(5 * 60);
    expect((await send(id)).status).toBe(200);
  });
});

describe('send: closed, archived, missing', () => {
  async function completed() {
    const id = await inProgress();
    const token = await latestToken(service, id);
    const [step] = await templateIds(service, tenant, tenant.templateId);
    await saveAnswer(service, id, token, step!.fieldIds[0]!);
    await submitStep(service, id, token, step!.stepId);
    return id;
  }
  async function cancelled() {
    const { id } = await createOnboarding(service, tenant);
    await onboardingRequest(service, tenant, 'PATCH', `/${id}`, { body: { status: 'cancelled' } });
    return id;
  }
  async function expired() {
    const expires = new Date(service.clock.now().getTime() + 3600_000).toISOString();
    const { id } = await createOnboarding(service, tenant, { expires_at: expires });
    await send(id);
    service.clock.advance(3600);
    await expire(service, id);
    return id;
  }

  it.each([
    ['completed', completed],
    ['cancelled', cancelled],
    ['expired', expired],
  ])('%s: 409 invalid_state, no invite', async (name, make) => {
    const id = await make();
    expect(await status(id)).toBe(name);
    const before = (await invites(service, id)).length;
    const answer = await send(id, { force: true });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual(full('invalid_state'));
    expect(await invites(service, id)).toHaveLength(before);
  });

  it('archived: 404 target_unavailable (draft, sent and closed alike)', async () => {
    const { id } = await createOnboarding(service, tenant);
    await archive(service, id);
    const answer = await send(id);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(full('target_unavailable'));
    const done = await completed();
    await archive(service, done);
    expect((await send(done)).body.code).toBe('target_unavailable');
  });

  it('unknown or another team’s: 404 target_unavailable; not a UUID: 400 invalid_body', async () => {
    expect((await send(randomUUID())).body.code).toBe('target_unavailable');
    const other = await createTenant(service);
    const { id } = await createOnboarding(service, other);
    expect((await send(id)).status).toBe(404);
    const bad = await send('1234');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_body');
  });

  it('client erased: 410 client_erasure_pending; client gone: 404 client_scope_missing', async () => {
    const erasedTenant = await createTenant(service);
    const { id } = await createOnboarding(service, erasedTenant);
    await eraseClient(service, erasedTenant.clientId);
    const erased = await send(id, undefined, erasedTenant);
    expect(erased.status).toBe(410);
    expect(erased.body).toEqual(full('client_erasure_pending'));

    const goneTenant = await createTenant(service);
    const gone = await createOnboarding(service, goneTenant);
    await service.database.pool.query('delete from clients where id = $1', [goneTenant.clientId]);
    const missing = await send(gone.id, undefined, goneTenant);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(full('client_scope_missing'));
  });
});

describe('send: body', () => {
  it.each([
    ['a 5-digit PIN', { pin: '12345' }],
    ['a 7-digit PIN', { pin: '1234567' }],
    ['letters', { pin: 'abcdef' }],
    ['a numeric PIN', { pin: 123456 }],
    ['spaces', { pin: '123 45' }],
    ['force as a string', { force: 'true' }],
  ])('%s: 400 invalid_body', async (_name, body) => {
    const { id } = await createOnboarding(service, tenant);
    const answer = await send(id, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      ...full('invalid_body'),
      details: { issues: [{ path: `body/${Object.keys(body)[0]}`, message: expect.any(String) }] },
    });
    expect(await status(id)).toBe('draft');
  });

  it('an empty JSON body is no body', async () => {
    const { id } = await createOnboarding(service, tenant);
    const answer = await onboardingRequest(service, tenant, 'POST', `/${id}/send`, {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(200);
  });

  it('a PIN of 6 digits protects the link and carries over to the next link when omitted', async () => {
    const { id } = await createOnboarding(service, tenant);
    expect((await send(id, { pin: '042917' })).status).toBe(200);
    expect((await invites(service, id)).at(-1)!.text).toContain('asks for the PIN');
    expect((await invites(service, id)).at(-1)!.text).not.toContain('042917');
    expect((await send(id)).status).toBe(200);
    const events = (await streamEvents(service, id)).filter((event) => event.type === 'onboarding.sent');
    expect(events.map((event) => event.data.pin_changed)).toEqual([true, false]);
    expect(await verifyPin('042917', events[1]!.data.pin)).toBe(true);
    expect(await verifyPin('000000', events[1]!.data.pin)).toBe(false);
    expect(JSON.stringify(events.map((event) => event.data))).not.toContain('042917');
    expect((await send(id, { pin: '111111' })).status).toBe(200);
    const last = (await streamEvents(service, id)).at(-1)!;
    expect(await verifyPin('111111', last.data.pin)).toBe(true);
  });
});

const paymentTemplate = (amount: unknown, is_required = true): TemplateInput => ({
  name: 'Retainer',
  steps: [
    {
      title: 'Pay',
      sort_order: 1,
      fields: [
        { type: 'short_text', label: 'Name', sort_order: 1 },
        {
          type: 'payment',
          label: 'Retainer fee',
          sort_order: 2,
          is_required,
          config: { amount_cents: amount, currency: 'USD' },
        },
      ],
    },
  ],
});

const sampleSignatureTemplate = (): TemplateInput => ({
  name: 'Engagement',
  steps: [
    {
      title: 'Sign',
      sort_order: 1,
      fields: [
        {
          type: 'signature',
          label: 'Engagement letter',
          sort_order: 1,
          is_required: true,
          config: { agreement_text: 'Sample text', is_sample_text: true },
        },
      ],
    },
  ],
});

async function tenantWith(team: TeamInput, template: TemplateInput = {}) {
  return createTenant(service, { ...team, template: { ...template } });
}

async function sendNew(on: Tenant) {
  const { id } = await createOnboarding(service, on);
  return { id, answer: await send(id, undefined, on) };
}

describe('send checks in the spec order (the first failing check decides)', () => {
  it('1. invalid payment amount: 400 invalid_payment with details, before every later check', async () => {
    for (const amount of [0, -100, 12.5, '5000', null]) {
      const on = await tenantWith(
        { plan: 'pro_trial', payments_connected: false, sending_paused: true, monthly_onboarding_limit: 0 },
        paymentTemplate(amount),
      );
      const [step] = await templateIds(service, on, on.templateId);
      const { id, answer } = await sendNew(on);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        ...full('invalid_payment'),
        details: { field_id: step!.fieldIds[1], step_id: step!.stepId },
      });
      expect(answer.body.error).toContain('"Retainer fee"');
      expect(await status(id, on)).toBe('draft');
    }
  });

  it('an optional payment field never blocks and is not reported', async () => {
    const on = await tenantWith({ plan: 'pro_trial', payments_connected: false }, paymentTemplate(0, false));
    expect((await sendNew(on)).answer.status).toBe(200);
  });

  it('2. plan cannot collect payments: 403 payment_plan_required (pro_trial)', async () => {
    const on = await tenantWith(
      { plan: 'pro_trial', payments_connected: false, sending_paused: true, monthly_onboarding_limit: 0 },
      paymentTemplate(5000),
    );
    const { answer } = await sendNew(on);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(full('payment_plan_required'));
  });

  it('3. no connected processor: 400 payment_not_connected; connected: sent', async () => {
    const on = await tenantWith(
      { plan: 'business', payments_connected: false, sending_paused: true },
      paymentTemplate(5000),
    );
    const { id, answer } = await sendNew(on);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(full('payment_not_connected'));
    await updateTeam(service, on.teamId, { payments_connected: true, sending_paused: false });
    expect((await send(id, undefined, on)).status).toBe(200);
  });

  it('4. a signature field with sample agreement text: 409 agreement_text_required with details', async () => {
    const on = await tenantWith(
      { sending_paused: true, monthly_onboarding_limit: 0 },
      sampleSignatureTemplate(),
    );
    const [step] = await templateIds(service, on, on.templateId);
    const { answer } = await sendNew(on);
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      ...full('agreement_text_required'),
      details: { field_id: step!.fieldIds[0], step_id: step!.stepId },
    });
    expect(answer.body.error).toContain('"Engagement letter"');
  });

  it('5a. sending paused: 403 sending_paused, before the recipient cap and the monthly limit', async () => {
    const on = await tenantWith({
      sending_paused: true,
      unpaid: true,
      new_recipient_cap: 0,
      monthly_onboarding_limit: 0,
    });
    const { id, answer } = await sendNew(on);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(full('sending_paused'));
    expect(await invites(service, id)).toEqual([]);
  });

  it('5b. an unpaid team over its new-recipient cap in 24 hours: 429 recipient_cap_reached', async () => {
    const on = await tenantWith({ unpaid: true, new_recipient_cap: 1 });
    expect((await sendNew(on)).answer.status).toBe(200);
    // Another onboarding of the same client is not a new recipient.
    expect((await sendNew(on)).answer.status).toBe(200);
    const second = await createClient(service, on, 'Grace Hopper');
    const { id } = await createOnboarding(service, { ...on, clientId: second.id });
    await updateTeam(service, on.teamId, { monthly_onboarding_limit: 2 });
    const refused = await send(id, undefined, on);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(full('recipient_cap_reached'));
    expect(refused.headers.get('retry-after')).toBeNull();
    // A paid team has no such cap; after 24 hours the unpaid team may invite again.
    await updateTeam(service, on.teamId, { monthly_onboarding_limit: null });
    service.clock.advance(24 * 3600);
    expect((await send(id, undefined, on)).status).toBe(200);
  });

  it('5b. the default cap of unpaid teams is 10 new recipients per 24 hours', async () => {
    const on = await tenantWith({ unpaid: true });
    for (let n = 0; n < 10; n++) {
      const client = await createClient(service, on, `Client ${n}`);
      const { id } = await createOnboarding(service, { ...on, clientId: client.id });
      expect((await send(id, undefined, on)).status).toBe(200);
    }
    const client = await createClient(service, on, 'Client 11');
    const { id } = await createOnboarding(service, { ...on, clientId: client.id });
    expect((await send(id, undefined, on)).body.code).toBe('recipient_cap_reached');
    await updateTeam(service, on.teamId, { unpaid: false });
    expect((await send(id, undefined, on)).status).toBe(200);
  });

  it('6. monthly limit reached: 403 limit_reached, the onboarding stays a draft; a resend is not counted', async () => {
    const on = await tenantWith({ monthly_onboarding_limit: 1 });
    const first = await sendNew(on);
    expect(first.answer.status).toBe(200);
    const { id, answer } = await sendNew(on);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(full('limit_reached'));
    expect(await status(id, on)).toBe('draft');
    expect((await streamEvents(service, id)).map((event) => event.type)).toEqual(['onboarding_created']);
    expect(await invites(service, id)).toEqual([]);
    // The first one can still be resent.
    expect((await send(first.id, undefined, on)).status).toBe(200);
    expect(await usageRows(on.teamId)).toHaveLength(1);
  });

  it('6. the month is the team’s calendar month in its time zone', async () => {
    service.clock.set(new Date('2025-03-31T10:30:00.000Z')); // 23:30 on March 31 in Auckland
    const on = await tenantWith({ monthly_onboarding_limit: 1, timezone: 'Pacific/Auckland' });
    expect((await sendNew(on)).answer.status).toBe(200);
    expect((await sendNew(on)).answer.body.code).toBe('limit_reached');
    service.clock.advance(3600); // 00:30 on April 1 in Auckland, still March 31 in UTC
    expect((await sendNew(on)).answer.status).toBe(200);
    expect((await usageRows(on.teamId)).map((row) => row.usage_month).sort()).toEqual(['2025-03', '2025-04']);
  });

  it('unlimited (business) is never limited; an "unlimited" override neither', async () => {
    const on = await tenantWith({ plan: 'business' });
    for (let n = 0; n < 3; n++) expect((await sendNew(on)).answer.status).toBe(200);
    const override = await tenantWith({ plan: 'pro', monthly_onboarding_limit: 'unlimited' });
    expect((await sendNew(override)).answer.status).toBe(200);
  });
});

describe('send: concurrency', () => {
  it('concurrent first sends of different onboardings never pass the monthly cap', async () => {
    const on = await tenantWith({ monthly_onboarding_limit: 3 });
    const ids = [];
    for (let n = 0; n < 8; n++) ids.push((await createOnboarding(service, on)).id);
    const answers = await Promise.all(ids.map((id) => send(id, undefined, on)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(answers.filter((answer) => answer.body.code === 'limit_reached')).toHaveLength(5);
    expect(await usageRows(on.teamId)).toHaveLength(3);
  });

  it('concurrent sends of one draft count it once; each is its own send with its own invite', async () => {
    const on = await tenantWith({});
    const { id } = await createOnboarding(service, on);
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(id, undefined, on)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const sends = (await streamEvents(service, id)).filter((event) => event.type === 'onboarding.sent');
    expect(sends.map((event) => event.data.counted)).toEqual([true, false, false, false, false]);
    expect(await usageRows(on.teamId)).toHaveLength(1);
    expect(await invites(service, id)).toHaveLength(5);
    const active = await service.database.pool.query(
      'select count(*)::int as n from onboarding_links where onboarding_id = $1 and deactivated_at is null',
      [id],
    );
    expect(active.rows[0].n).toBe(1);
  });
});

describe('send: scope', () => {
  it('a malformed body is 400 before the scope check; without onboardings:write 403', async () => {
    const { id } = await createOnboarding(service, tenant);
    const readOnly = await createTeamWithKey(service, { scopes: ['onboardings:read'] });
    const bad = await onboardingRequest(service, readOnly, 'POST', `/${id}/send`, { body: { pin: '1' } });
    expect(bad.body.code).toBe('invalid_body');
    const denied = await onboardingRequest(service, readOnly, 'POST', `/${id}/send`, { body: {} });
    expect(denied.body.code).toBe('api_key_scope_denied');
  });

  it('the team’s own template as a copy of a sample one can be sent once its text is written', async () => {
    const on = await tenantWith({});
    const template = await createTemplate(service, on.teamId, {
      steps: [
        {
          title: 'Sign',
          sort_order: 1,
          fields: [
            {
              type: 'signature',
              label: 'Agreement',
              sort_order: 1,
              config: { agreement_text: 'We agree on the fees.', is_sample_text: false },
            },
          ],
        },
      ],
    });
    const { id } = await createOnboarding(service, { ...on, templateId: template.id });
    expect((await send(id, undefined, on)).status).toBe(200);
  });
});
