import { openedBody } from '../../../services/automation/webhook-body.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsReceiver, type HttpsReceiver } from '../../helpers/https-receiver.ts';
import { containsAny, exportText, tablesHolding } from '../../helpers/personal-data.ts';
import type { TestService } from '../../helpers/service.ts';
import { addMember, adminRequest, apiRequest } from '../../helpers/tenant.ts';
import {
  advance,
  createRule,
  drain,
  latestRun,
  minutes,
  startOutboundService,
} from '../automation-fixtures.ts';
import { createTenant, portal, sentOnboarding, uploadFile, type Tenant } from '../portal-fixtures.ts';

/*
 * Erasure of a client whose team has automation rules and hook subscriptions with work
 * still pending: a Send webhook run retrying (the receiver answers 500) and others queued,
 * hook deliveries retrying. Afterwards no table, no API answer, no export line and no
 * later outbound request holds the client's name or email.
 */

const NAME = 'Philippa Vanderbijl';
const EMAIL = 'philippa.vanderbijl@erasure-automation.example';
const NEEDLES = [NAME, EMAIL, 'Vanderbijl'];

let service: TestService;
let receiver: HttpsReceiver;
let tenant: Tenant;
let clientId: string;
let onboardingId: string;
let rules: Record<'signed' | 'completed' | 'email' | 'notify' | 'create', { id: string }>;
let memberEmail: string;
/** Requests the receiver got before the erasure (they carried the data then, as they should). */
let requestsBeforeErasure: number;
/** The signature's webhook body as queued: its keys in order. */
let signedKeys: string[];
let erasure: Awaited<ReturnType<typeof adminRequest>>;

const containsPersonalData = (text: string) => containsAny(NEEDLES, text);
const tablesHoldingPersonalData = () => tablesHolding(service.database.pool, NEEDLES);

const runs = async () =>
  (
    await service.database.pool.query<{
      rule_id: string;
      state: string;
      failure: string | null;
      request_body: string | null;
    }>(
      'select rule_id, state, failure, request_body from automation_runs where onboarding_id = $1 order by queued_at',
      [onboardingId],
    )
  ).rows;

const runOf = async (rule: { id: string }) => (await runs()).filter((run) => run.rule_id === rule.id);

beforeAll(async () => {
  service = await startOutboundService();
  receiver = await startHttpsReceiver();
  receiver.fallback = { status: 500 };
  tenant = await createTenant(service);
  const member = await addMember(service, tenant.teamId, { name: 'Nora', email: 'nora@team.example' });
  memberEmail = member.email;
  rules = {
    signed: await createRule(service, tenant.teamId, {
      name: 'Signature to the CRM',
      trigger: 'signature.signed',
      action: { type: 'send_webhook', url: `${receiver.url}/signed` },
    }),
    completed: await createRule(service, tenant.teamId, {
      name: 'Completion to the CRM',
      trigger: 'onboarding.completed',
      action: { type: 'send_webhook', url: `${receiver.url}/completed` },
    }),
    email: await createRule(service, tenant.teamId, {
      name: 'Thank the client',
      trigger: 'onboarding.completed',
      action: {
        type: 'send_email',
        subject: 'Thank you, {{client_name}}',
        body: 'Dear {{client_name}} ({{client_email}}, {{company}}), thank you.',
      },
    }),
    notify: await createRule(service, tenant.teamId, {
      name: 'Tell Nora',
      trigger: 'onboarding.completed',
      action: {
        type: 'notify_member',
        member_id: member.id,
        message: '{{client_name}} <{{client_email}}> finished {{template_name}}.',
      },
    }),
    create: await createRule(service, tenant.teamId, {
      name: 'Next pack',
      trigger: 'onboarding.completed',
      action: { type: 'create_onboarding', template_id: tenant.template.id },
    }),
  };
  for (const event of ['onboarding.sent', 'signature.signed', 'onboarding.completed']) {
    const subscribed = await apiRequest(service, tenant.apiKey, 'POST', '/automation/subscribe', {
      body: { event, target_url: `${receiver.url}/hooks/${event}` },
    });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);
  }

  const sent = await sentOnboarding(service, tenant, {
    client: { name: NAME, email: EMAIL, company: `${NAME} Holdings` } as never,
  });
  clientId = sent.client.id;
  onboardingId = sent.onboardingId;
  const { fields, steps } = tenant.ids;
  const ok = async (answer: Promise<{ status: number; body: unknown }>, status = 200) => {
    const { status: actual, body } = await answer;
    expect(actual, JSON.stringify(body)).toBe(status);
  };
  await ok(portal(service, sent.token, 'PUT', `/answers/${fields.fullName}`, { body: { value: NAME } }));
  await ok(portal(service, sent.token, 'POST', `/steps/${steps.about}/submit`));
  await ok(uploadFile(service, sent.token, fields.idDocument, { name: 'id.pdf', content: 'PDF' }), 201);
  await ok(
    portal(service, sent.token, 'POST', `/fields/${fields.agreement}/signature`, {
      body: { signer_name: NAME, signer_email: EMAIL },
    }),
    201,
  );
  await drain(service);
  // The 10:20 pass: the signature's webhook answers 500, so its run is retrying.
  await advance(service, minutes(5));
  expect(await runOf(rules.signed)).toEqual([
    expect.objectContaining({ state: 'failed', failure: 'retrying', request_body: expect.any(String) }),
  ]);
  // Completed now: the four onboarding.completed runs are queued for the 10:25 pass.
  await ok(portal(service, sent.token, 'POST', `/steps/${steps.documents}/submit`));
  await drain(service);
  for (const rule of [rules.completed, rules.email, rules.notify, rules.create])
    expect(await runOf(rule)).toEqual([expect.objectContaining({ state: 'queued' })]);

  // The data is there before the erasure (so the checks below can fail), sealed with the
  // client's key: no table holds it in plain text, the body opens to it ...
  expect(await tablesHoldingPersonalData()).toEqual([]);
  const signedBody = JSON.parse(
    await openedBody(service.context.vault, (await runOf(rules.signed))[0]!.request_body!),
  );
  signedKeys = Object.keys(signedBody.data);
  expect(signedBody.data).toMatchObject({
    client_name: NAME,
    client_email: EMAIL,
    signer_name: NAME,
    signer_email: EMAIL,
  });
  // ... and the hook deliveries, retrying too, never held it (ids and facts only).
  const hooks = await service.database.pool.query<{ state: string }>(
    'select state from hook_deliveries where team_id = $1',
    [tenant.teamId],
  );
  expect(hooks.rows.map((row) => row.state)).toEqual(['retrying', 'retrying', 'retrying']);
  expect(await tablesHoldingPersonalData()).not.toContain('hook_deliveries');

  requestsBeforeErasure = receiver.requests.length;
  erasure = await adminRequest(service, 'POST', `/teams/${tenant.teamId}/clients/${clientId}/erase`);
});

afterAll(async () => {
  await receiver?.close();
  await service?.stop();
});

describe('erasing a client with automation and hook work pending', () => {
  it('answers 202 and leaves no table holding the name or email', async () => {
    expect(erasure.status, JSON.stringify(erasure.body)).toBe(202);
    expect(await tablesHoldingPersonalData()).toEqual([]);
  });

  it('pending Send webhook runs keep their body, with the client’s and signer’s name and email null', async () => {
    const [signed] = await runOf(rules.signed);
    const [completed] = await runOf(rules.completed);
    expect(signed).toMatchObject({ state: 'failed', failure: 'retrying' });
    expect(completed).toMatchObject({ state: 'queued' });
    const signedBody = JSON.parse(signed!.request_body!);
    expect(signedBody.data).toMatchObject({
      onboarding_id: onboardingId,
      client_id: clientId,
      client_name: null,
      client_email: null,
      signer_name: null,
      signer_email: null,
    });
    expect(Object.keys(signedBody.data)).toEqual(signedKeys); // the same body, only those values null
    expect(JSON.parse(completed!.request_body!).data).toMatchObject({
      onboarding_id: onboardingId,
      client_id: clientId,
      client_name: null,
      client_email: null,
    });
  });

  it('later passes: webhooks and hooks go out without the data; nothing emails the client or onboards it again', async () => {
    await advance(service, minutes(5)); // 10:25: the queued runs, the signature's retry
    await advance(service, 3600); // later retries of the webhooks and hooks
    const after = receiver.requests.slice(requestsBeforeErasure);
    expect(after.map((request) => request.path)).toEqual(
      expect.arrayContaining(['/signed', '/completed', '/hooks/onboarding.completed']),
    );
    for (const request of after) expect(containsPersonalData(request.body), request.path).toBe(false);
    const completed = after.find((request) => request.path === '/completed')!.json();
    expect(completed.data).toMatchObject({ client_id: clientId, client_name: null, client_email: null });

    expect(await latestRun(service, tenant.teamId, rules.email.id)).toBe(
      'Failed: client has no valid email address (stopped)',
    );
    expect(await latestRun(service, tenant.teamId, rules.create.id)).toBe('Failed: client erased (stopped)');
    expect(await latestRun(service, tenant.teamId, rules.notify.id)).toMatch(/^Last ran /);
    const onboardings = await service.database.pool.query('select id from onboardings where client_id = $1', [
      clientId,
    ]);
    expect(onboardings.rows).toEqual([{ id: onboardingId }]);

    const emails = (await adminRequest(service, 'GET', `/teams/${tenant.teamId}/emails`)).body
      .emails as Array<{
      kind: string;
      to: string;
      text: string;
    }>;
    expect(emails.some((email) => email.kind === 'automation')).toBe(false);
    const notification = emails.find((email) => email.kind === 'notification');
    expect(notification).toMatchObject({ to: memberEmail });
    expect(notification!.text).toContain('<> finished Client onboarding pack.');
    expect(await tablesHoldingPersonalData()).toEqual([]);
  });

  it('no API answer and no export line holds them', async () => {
    const teamPath = `/teams/${tenant.teamId}`;
    const answers = await Promise.all([
      apiRequest(service, tenant.apiKey, 'GET', '/events?limit=100'),
      apiRequest(service, tenant.apiKey, 'GET', '/onboardings?archived=all&limit=100'),
      apiRequest(service, tenant.apiKey, 'GET', '/clients?limit=100'),
      apiRequest(service, tenant.apiKey, 'GET', `/clients/${clientId}`),
      adminRequest(service, 'GET', `${teamPath}/automation-rules`),
      ...Object.values(rules).map((rule) =>
        adminRequest(service, 'GET', `${teamPath}/automation-rules/${rule.id}`),
      ),
      adminRequest(service, 'GET', `${teamPath}/emails`),
      adminRequest(service, 'GET', `/onboardings/${onboardingId}/link`),
    ]);
    for (const answer of answers) expect(containsPersonalData(JSON.stringify(answer.body))).toBe(false);
    const text = await exportText(service.context.eventStore);
    expect(text).toContain('client.erased');
    expect(containsPersonalData(text)).toBe(false);
  });
});

describe('an action in flight when the erasure comes', () => {
  it('the erasure waits for it, then scrubs the email it queued', async () => {
    const other = { name: 'Ottilie Brandswick', email: 'ottilie.brandswick@erasure-automation.example' };
    const sent = await sentOnboarding(service, tenant, { client: other });
    const { fields } = tenant.ids;
    const signed = await portal(service, sent.token, 'POST', `/fields/${fields.agreement}/signature`, {
      body: { signer_name: other.name, signer_email: other.email },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    await drain(service);
    const { rows } = await service.database.pool.query<{ id: string }>(
      `select id from automation_runs where onboarding_id = $1 and state = 'queued'`,
      [sent.onboardingId],
    );
    expect(rows).toHaveLength(1);

    // An action holds its run (actions.ts) and queues an email to the client, not committed yet.
    const action = await service.database.pool.connect();
    try {
      await action.query('begin');
      await action.query('select 1 from automation_runs where id = $1 for update', [rows[0]!.id]);
      await action.query(
        `insert into mail_outbox (id, team_id, kind, "to", from_name, subject, text, onboarding_id, event_id, created_at, status)
         values (gen_random_uuid(), $1, 'automation', $2, 'Acme', $3, $3, $4, null, now(), 'queued')`,
        [tenant.teamId, other.email, `Thank you, ${other.name}`, sent.onboardingId],
      );
      const erasing = adminRequest(
        service,
        'POST',
        `/teams/${tenant.teamId}/clients/${sent.client.id}/erase`,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await action.query('commit');
      expect((await erasing).status).toBe(202);
    } finally {
      action.release();
    }
    expect(await tablesHolding(service.database.pool, [other.name, other.email])).toEqual([]);
  });
});
