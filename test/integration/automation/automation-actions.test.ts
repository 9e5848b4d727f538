import { storedValue } from '../../../shared/privacy/sealed-columns.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type SmtpTestServer } from '../../helpers/smtp.ts';
import type { TestService } from '../../helpers/service.ts';
import {
  addMember,
  adminRequest,
  createTemplate,
  deleteTemplate,
  removeMember,
  updateTeam,
} from '../../helpers/tenant.ts';
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
  eraseClient,
  sendOnboarding,
  type Tenant,
} from '../onboardings-fixtures.ts';

/*
 * Send email, Notify team member and Create new onboarding, end to end: rules through the
 * operator API, onboardings through the API and the portal, mail through a real SMTP
 * server in the test process.
 */

let smtp: SmtpTestServer;
let service: TestService;

beforeAll(async () => {
  smtp = await startSmtpServer();
  service = await startOutboundService({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await service?.stop();
  await smtp?.close();
});

const nextPass = () => advance(service, minutes(5));
const mailsTo = (address: string) => smtp.messages.filter((mail) => mail.envelope.to.includes(address));

async function clientEmail(clientId: string) {
  const { rows } = await service.database.pool.query<{ email: string }>(
    'select email from clients where id = $1',
    [clientId],
  );
  // Sealed with the client's key at rest.
  return (await service.context.vault.open(storedValue(rows[0]!.email)))!;
}

const onboardingsOf = async (clientId: string) =>
  (
    await service.database.pool.query<{
      id: string;
      status: string;
      due_date: string | null;
      assigned_to: string | null;
    }>(
      'select id, status, due_date, assigned_to from onboardings where client_id = $1 order by created_at, position',
      [clientId],
    )
  ).rows;

describe('Send email', () => {
  it('to the client, from the firm name, placeholders filled at run time, plain text with line breaks kept', async () => {
    const tenant = await createTenant(service, {
      name: 'Acme Accounting',
      email_sender_name: 'Acme Tax Team',
    });
    const rule = await createRule(service, tenant.teamId, {
      name: 'Thank you',
      trigger: 'onboarding.completed',
      action: {
        type: 'send_email',
        subject: 'Thanks {{client_name}} for {{template_name}}',
        body: [
          'Hi {{client_name}} ({{client_email}}) of {{company}},',
          '',
          '{{team_name}} received "{{template_name}}": {{progress_pct}}% done ({{event_type}}).',
          'Due: [{{due_date}}] <b>not bold</b> {{unknown}}',
        ].join('\n'),
      },
    });
    const client = await createClient(service, tenant, 'Grace Hopper');
    const to = await clientEmail(client.id);
    await completeOnboarding(service, tenant, client.id);
    await drain(service);
    expect(mailsTo(to).filter((mail) => mail.subject.startsWith('Thanks'))).toHaveLength(0);
    await nextPass();
    const [mail] = mailsTo(to).filter((candidate) => candidate.subject.startsWith('Thanks'));
    expect(mail?.subject).toBe('Thanks Grace Hopper for Tax intake');
    expect(mail?.header('from')).toBe('Acme Tax Team <no-reply@forms.example.com>');
    expect(mail?.text.trimEnd()).toBe(
      [
        `Hi Grace Hopper (${to}) of ,`,
        '',
        'Acme Tax Team received "Tax intake": 100% done (onboarding.completed).',
        'Due: [] <b>not bold</b> {{unknown}}',
      ].join('\n'),
    );
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe('Last ran Nov 21, 2026, 10:20 AM UTC');
    const outbox = (await adminRequest(service, 'GET', `/teams/${tenant.teamId}/emails`)).body.emails;
    // The client's confirmation email of the same completion (kind notification) is there too.
    expect(outbox.filter((email: { kind: string }) => email.kind === 'automation')).toEqual([
      expect.objectContaining({ kind: 'automation', to, from_name: 'Acme Tax Team', status: 'sent' }),
    ]);
  });

  it('the firm name: the team name without a sender name; the owner while the name is the signup placeholder', async () => {
    const named = await createTenant(service, { name: 'Baker & Sons' });
    const placeholder = await createTenant(service, { name: 'My Team' });
    await addMember(service, placeholder.teamId, { name: 'Olivia Owner', role: 'owner' });
    for (const tenant of [named, placeholder]) {
      await createRule(service, tenant.teamId, {
        name: 'Hello',
        trigger: 'onboarding.completed',
        action: { type: 'send_email', subject: 'From {{team_name}}', body: 'Regards, {{team_name}}' },
      });
      await completeOnboarding(service, tenant);
    }
    await nextPass();
    const namedMail = mailsTo(await clientEmail(named.clientId)).find((mail) =>
      mail.subject.startsWith('From'),
    );
    const ownerMail = mailsTo(await clientEmail(placeholder.clientId)).find((mail) =>
      mail.subject.startsWith('From'),
    );
    expect(namedMail?.header('from')).toBe('"Baker & Sons" <no-reply@forms.example.com>');
    expect(namedMail?.text.trimEnd()).toBe('Regards, Baker & Sons');
    expect(ownerMail?.header('from')).toBe('Olivia Owner <no-reply@forms.example.com>');
    expect(ownerMail?.subject).toBe('From Olivia Owner');
  });

  it('{{due_date}} in the client’s date format; an overdue onboarding triggers onboarding.overdue rules', async () => {
    const tenant = await createTenant(service, { date_format: 'DD.MM.YYYY', timezone: 'Europe/Berlin' });
    const rule = await createRule(service, tenant.teamId, {
      name: 'Late',
      trigger: 'onboarding.overdue',
      action: {
        type: 'send_email',
        subject: 'Overdue since {{due_date}}',
        body: '{{event_type}} / {{progress_pct}}',
      },
    });
    const { id } = await createOnboarding(service, tenant, { due_date: '2026-11-22' });
    expect((await sendOnboarding(service, tenant, id)).status).toBe(200);
    await advance(service, 2 * 24 * 3600); // past the end of Nov 22 in Berlin: overdue; the run is queued
    await nextPass();
    const mail = mailsTo(await clientEmail(tenant.clientId)).find((candidate) =>
      candidate.subject.startsWith('Overdue'),
    );
    expect(mail?.subject).toBe('Overdue since 22.11.2026');
    expect(mail?.text.trimEnd()).toBe('onboarding.overdue / 0');
    expect(await latestRun(service, tenant.teamId, rule.id)).toMatch(
      /^Last ran Nov 2\d, 2026, \d{1,2}:\d{2} (AM|PM) GMT\+1$/,
    );
  });

  it('a client without a valid email address: the run stops without retry and the line says so', async () => {
    const tenant = await createTenant(service);
    const rule = await createRule(service, tenant.teamId, {
      name: 'Thank you',
      trigger: 'onboarding.completed',
      action: { type: 'send_email', subject: 'Thanks', body: 'Thanks' },
    });
    const { onboardingId } = await completeOnboarding(service, tenant);
    await drain(service);
    await eraseClient(service, tenant.clientId);
    await nextPass();
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe(
      'Failed: client has no valid email address (stopped)',
    );
    const runs = await service.database.pool.query(
      'select state, failure, attempts from automation_runs where onboarding_id = $1',
      [onboardingId],
    );
    expect(runs.rows).toEqual([{ state: 'failed', failure: 'stopped', attempts: 1 }]);
  });
});

describe('Notify team member', () => {
  it('emailed from the service: subject "[<team name>] Workflow notification", heading, message, the team line', async () => {
    const tenant = await createTenant(service, {
      name: 'Acme Accounting',
      email_sender_name: 'Acme Tax Team',
    });
    const member = await addMember(service, tenant.teamId, { name: 'Nora', email: 'nora@acme.example.com' });
    const rule = await createRule(service, tenant.teamId, {
      name: 'Tell Nora',
      trigger: 'onboarding.completed',
      action: {
        type: 'notify_member',
        member_id: member.id,
        message: '{{client_name}} finished {{template_name}} for {{team_name}}.\nPlease review.',
      },
    });
    await completeOnboarding(service, tenant);
    await nextPass();
    const [mail] = mailsTo('nora@acme.example.com');
    expect(mail?.subject).toBe('[Acme Accounting] Workflow notification');
    expect(mail?.header('from')).toBe('Client Onboarding <no-reply@forms.example.com>');
    expect(mail?.text.trimEnd()).toBe(
      [
        'Workflow notification',
        '',
        'Ada Lovelace finished Tax intake for Acme Accounting.',
        'Please review.',
        '',
        'Sent by an automation rule of the team Acme Accounting.',
      ].join('\n'),
    );
    expect(await latestRun(service, tenant.teamId, rule.id)).toMatch(/^Last ran /);
    const outbox = (await adminRequest(service, 'GET', `/teams/${tenant.teamId}/emails`)).body.emails;
    // The client's confirmation email of the same completion is in the outbox too.
    const toMember = outbox.filter((email: { to: string }) => email.to === 'nora@acme.example.com');
    expect(toMember).toEqual([
      expect.objectContaining({ kind: 'notification', from_name: 'Client Onboarding', status: 'sent' }),
    ]);
  });

  it('a member who left before the run: stopped', async () => {
    const tenant = await createTenant(service);
    const member = await addMember(service, tenant.teamId);
    const rule = await createRule(service, tenant.teamId, {
      name: 'Tell',
      trigger: 'onboarding.completed',
      action: { type: 'notify_member', member_id: member.id, message: 'Done' },
    });
    await completeOnboarding(service, tenant);
    await drain(service);
    await removeMember(service, tenant.teamId, member.id);
    await nextPass();
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe(
      'Failed: team member left the team (stopped)',
    );
  });
});

describe('Create new onboarding', () => {
  async function createRuleTenant(input: Parameters<typeof createTenant>[1] = {}) {
    const tenant: Tenant = await createTenant(service, input);
    const next = await createTemplate(service, tenant.teamId, {
      name: 'Follow-up',
      steps: [
        {
          title: 'More',
          sort_order: 1,
          fields: [{ type: 'short_text', label: 'Anything else?', sort_order: 1 }],
        },
      ],
    });
    const rule = await createRule(service, tenant.teamId, {
      name: 'Next form',
      trigger: 'onboarding.completed',
      action: { type: 'create_onboarding', template_id: next.id },
    });
    return { tenant, next, rule };
  }

  it('creates and sends like a manual send: invite emailed, counted, no due date, no assignee', async () => {
    const { tenant, next, rule } = await createRuleTenant();
    const { onboardingId } = await completeOnboarding(service, tenant);
    const to = await clientEmail(tenant.clientId);
    await nextPass();
    const all = await onboardingsOf(tenant.clientId);
    expect(all).toHaveLength(2);
    const created = all.find((onboarding) => onboarding.id !== onboardingId)!;
    expect(created).toMatchObject({ status: 'sent', due_date: null, assigned_to: null });
    const template = await service.database.pool.query('select template_id from onboardings where id = $1', [
      created.id,
    ]);
    expect(template.rows[0].template_id).toBe(next.id);
    const usage = await service.database.pool.query(
      'select 1 from onboarding_send_usage where onboarding_id = $1',
      [created.id],
    );
    expect(usage.rowCount).toBe(1);
    const invite = mailsTo(to).find((mail) => mail.subject.endsWith('Follow-up'));
    expect(invite?.text).toContain('https://forms.example.com/f/');
    const events = await service.context.eventStore.readStream(`onboarding-${created.id}`);
    expect(events.map((event) => event.type)).toEqual(['onboarding_created', 'onboarding.sent']);
    expect(events[1]!.metadata).toMatchObject({ automation_rule_id: rule.id });
    expect(await latestRun(service, tenant.teamId, rule.id)).toMatch(/^Last ran /);
  });

  it.each([
    [
      'monthly onboardings used up',
      async (tenant: Tenant) => updateTeam(service, tenant.teamId, { monthly_onboarding_limit: 1 }),
    ],
    [
      'sending paused',
      async (tenant: Tenant) => updateTeam(service, tenant.teamId, { sending_paused: true }),
    ],
  ])(
    'a send that cannot go ahead (%s): nothing created or counted, stopped without retry',
    async (reason, block) => {
      const { tenant, rule } = await createRuleTenant();
      await completeOnboarding(service, tenant);
      await drain(service);
      await block(tenant);
      const usageBefore = await service.database.pool.query(
        'select count(*)::int as n from onboarding_send_usage where team_id = $1',
        [tenant.teamId],
      );
      await nextPass();
      await advance(service, minutes(60));
      expect(await latestRun(service, tenant.teamId, rule.id)).toBe(`Failed: ${reason} (stopped)`);
      expect(await onboardingsOf(tenant.clientId)).toHaveLength(1);
      const usageAfter = await service.database.pool.query(
        'select count(*)::int as n from onboarding_send_usage where team_id = $1',
        [tenant.teamId],
      );
      expect(usageAfter.rows[0].n).toBe(usageBefore.rows[0].n);
      const run = await service.database.pool.query(
        'select attempts, failure from automation_runs where rule_id = $1',
        [rule.id],
      );
      expect(run.rows).toEqual([{ attempts: 1, failure: 'stopped' }]);
    },
  );

  it('a template deleted after the event: "Failed: template deleted (stopped)"', async () => {
    const { tenant, next, rule } = await createRuleTenant();
    await completeOnboarding(service, tenant);
    await drain(service);
    await deleteTemplate(service, tenant.teamId, next.id);
    await nextPass();
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe('Failed: template deleted (stopped)');
    expect(await onboardingsOf(tenant.clientId)).toHaveLength(1);
  });

  it('a template whose signature field still holds sample agreement text: stopped, nothing created', async () => {
    const tenant: Tenant = await createTenant(service);
    const sample = await createTemplate(service, tenant.teamId, {
      name: 'Engagement',
      steps: [
        {
          title: 'Sign',
          sort_order: 1,
          fields: [
            {
              type: 'signature',
              label: 'Letter',
              sort_order: 1,
              is_required: true,
              config: { agreement_text: 'Sample agreement', is_sample_text: true },
            },
          ],
        },
      ],
    });
    const rule = await createRule(service, tenant.teamId, {
      name: 'Engage',
      trigger: 'onboarding.completed',
      action: { type: 'create_onboarding', template_id: sample.id },
    });
    await completeOnboarding(service, tenant);
    await nextPass();
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe(
      'Failed: signature field with sample agreement text (stopped)',
    );
    expect(await onboardingsOf(tenant.clientId)).toHaveLength(1);
  });
});
