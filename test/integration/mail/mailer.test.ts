import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type SmtpTestServer } from '../../helpers/smtp.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest, updateTeam } from '../../helpers/tenant.ts';
import { advance, drain, minutes, startOutboundService } from '../automation-fixtures.ts';
import {
  createOnboarding,
  createTenant,
  latestToken,
  sendOnboarding,
  twoStepTemplate,
  type Tenant,
} from '../onboardings-fixtures.ts';
import { formLink } from '../../helpers/client-link.ts';
import { linkReference } from '../../../services/mail/sent-mail.ts';

/*
 * The mailer: mail_outbox sent over SMTP (nodemailer) to a real SMTP server in the test
 * process, with a status per message and retries by the service clock.
 */

let smtp: SmtpTestServer;
let service: TestService;
let tenant: Tenant;

beforeAll(async () => {
  smtp = await startSmtpServer();
  service = await startOutboundService({ SMTP_URL: smtp.url });
  tenant = await createTenant(service, { name: 'Acme Accounting LLP', email_sender_name: 'Acme Accounting' });
});
afterAll(async () => {
  await service?.stop();
  await smtp?.close();
});

const emails = async (teamId = tenant.teamId) =>
  (await adminRequest(service, 'GET', `/teams/${teamId}/emails`)).body.emails as {
    id: string;
    kind: string;
    to: string;
    subject: string;
    text: string;
    status: string;
  }[];

const outboxRow = async (id: string) =>
  (
    await service.database.pool.query(
      'select status, attempts, last_error, next_attempt_at from mail_outbox where id = $1',
      [id],
    )
  ).rows[0];

async function sentOnboarding() {
  const { id } = await createOnboarding(service, tenant);
  expect((await sendOnboarding(service, tenant, id)).status).toBe(200);
  return id;
}

describe('mailer over SMTP', () => {
  it('the invite goes out: sender name, address, subject, text and HTML with the link; status sent', async () => {
    const before = smtp.messages.length;
    const onboardingId = await sentOnboarding();
    await drain(service);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    const token = await latestToken(service, onboardingId);
    const invite = (await emails()).find((email) => email.kind === 'invite')!;
    expect(mail!.envelope.to).toEqual([invite.to]);
    expect(mail!.header('from')).toBe('Acme Accounting <no-reply@forms.example.com>');
    expect(mail!.header('to')).toBe(invite.to);
    expect(mail!.subject).toBe('Acme Accounting invited you to fill in Tax intake');
    expect(mail!.subject).toBe(invite.subject);
    expect(mail!.text).toContain(formLink('https://forms.example.com', token));
    // What is kept of the sent invite: the text with a reference in place of the token.
    expect(mail!.text.trimEnd()).toBe(invite.text.replace(/\/f\/sent:[0-9a-f]{8}/, `/f/${token}`));
    expect(invite.text).not.toContain(token);
    expect(invite.text).toContain(`/f/${linkReference(token)}`);
    const stored = await service.database.pool.query(
      'select text, html, link_token from mail_outbox where id = $1',
      [invite.id],
    );
    expect(JSON.stringify(stored.rows[0])).not.toContain(token);
    // The HTML part went out with the link as a button; what is kept of it is sealed and holds a reference only.
    expect(mail!.html).toContain(`href="${formLink('https://forms.example.com', token)}"`);
    expect(mail!.html).toContain('<html lang="en-US"');
    expect(stored.rows[0].html).toContain('"pd"');
    const keptHtml = await service.context.vault.open(JSON.parse(stored.rows[0].html));
    expect(keptHtml?.trimEnd()).toBe(
      mail!.html!.trimEnd().replaceAll(`/f/${token}`, `/f/${linkReference(token)}`),
    );
    expect(mail!.header('message-id')).toBe(`<${invite.id}@forms.example.com>`);
    expect(mail!.header('auto-submitted')).toBe('auto-generated');
    expect(mail!.header('content-type')).toMatch(/^multipart\/alternative/);
    expect(invite.status).toBe('sent');
  });

  it("a client's email looks like the team's and reads in the client's language: logo, accent, form name, due date", async () => {
    const branded = await createTenant(service, {
      name: 'Brandt GmbH',
      locale: 'en-US',
      template: { ...twoStepTemplate(), translations: { 'de-DE': { name: 'Steuerunterlagen' } } },
    });
    await updateTeam(service, branded.teamId, {
      accent_color: '#7c2d12',
      logo: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    } as never);
    const client = await apiRequest(service, branded.apiKey, 'POST', '/clients', {
      body: { name: 'Greta Klein', email: 'greta.klein@example.com', locale: 'de-DE' },
    });
    const { id } = await createOnboarding(
      service,
      { ...branded, clientId: client.body.client.id },
      {
        due_date: '2026-12-05',
      },
    );
    const before = smtp.messages.length;
    expect((await sendOnboarding(service, branded, id)).status).toBe(200);
    await drain(service);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail!.subject).toBe('Brandt GmbH lädt Sie ein, Steuerunterlagen auszufüllen');
    expect(mail!.text).toContain('Hallo Greta Klein,');
    expect(mail!.text).toContain('Bitte füllen Sie es bis zum 5. Dezember 2026 aus.');
    expect(mail!.html).toContain('<html lang="de-DE"');
    expect(mail!.html).toMatch(
      new RegExp(
        `<img src="https://forms\\.example\\.com/brand/${branded.teamId}/logo\\?v=[0-9a-f]{12}" alt="Brandt GmbH"`,
      ),
    );
    expect(mail!.html).toContain('background:#7c2d12');
    expect(mail!.html).toContain(
      `href="${formLink('https://forms.example.com', await latestToken(service, id))}"`,
    );
  });

  it('the reminder goes out when its timer falls due (3 days after the send)', async () => {
    const onboardingId = await sentOnboarding();
    await drain(service);
    const before = smtp.messages.length;
    await advance(service, 3 * 24 * 3600);
    const messages = await smtp.waitFor(before + 1);
    const link = formLink('https://forms.example.com', await latestToken(service, onboardingId));
    const reminder = messages.slice(before).find((mail) => mail.text.includes(link));
    expect(reminder?.subject).toBe('Reminder: Tax intake from Acme Accounting');
    expect(reminder?.header('from')).toBe('Acme Accounting <no-reply@forms.example.com>');
    const row = (await emails()).find((email) => email.kind === 'reminder')!;
    expect(row.status).toBe('sent');
  });

  it('a refusal the server calls temporary (4xx) is retried later; a 5xx one fails the message', async () => {
    smtp.rejectNext(1, 451, 'Try again later');
    const before = smtp.messages.length;
    await sentOnboarding();
    await drain(service);
    const queued = (await emails())[0]!;
    expect(queued.status).toBe('queued');
    expect(await outboxRow(queued.id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      last_error: expect.stringContaining('451'),
    });
    expect(smtp.messages.length).toBe(before);
    await advance(service, minutes(1));
    await smtp.waitFor(before + 1);
    expect(await outboxRow(queued.id)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });

    smtp.rejectNext(1, 550, 'No such user');
    await sentOnboarding();
    await drain(service);
    const refused = (await emails())[0]!;
    expect(refused.status).toBe('failed');
    expect(await outboxRow(refused.id)).toMatchObject({
      attempts: 1,
      last_error: expect.stringContaining('550'),
    });
    await advance(service, minutes(60));
    expect((await outboxRow(refused.id)).attempts).toBe(1);
  });

  it('a server that keeps refusing for a while: retried with growing waits, failed after 8 attempts', async () => {
    smtp.rejectNext(8, 421, 'Busy');
    await sentOnboarding();
    await drain(service);
    const mail = (await emails())[0]!;
    // Waits of 1, 2, 4, ... 64 minutes: one attempt per move of the clock.
    for (let step = 0; step < 6; step++) await advance(service, minutes(65));
    expect(await outboxRow(mail.id)).toMatchObject({ status: 'queued', attempts: 7 });
    await advance(service, minutes(65));
    expect(await outboxRow(mail.id)).toMatchObject({ status: 'failed', attempts: 8 });
  });
});

describe('without SMTP_URL', () => {
  it('mail is recorded in the outbox only and stays queued', async () => {
    const plain = await startTestService({ RATE_LIMITS: 'off' });
    try {
      const own = await createTenant(plain);
      const { id } = await createOnboarding(plain, own);
      expect((await sendOnboarding(plain, own, id)).status).toBe(200);
      expect((await adminRequest(plain, 'POST', '/work/drain')).status).toBe(200);
      const listed = (await adminRequest(plain, 'GET', `/teams/${own.teamId}/emails`)).body.emails;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ kind: 'invite', status: 'queued' });
      // The outbox is the record a local user reads: the link stays in the text.
      const { token } = (await adminRequest(plain, 'GET', `/onboardings/${id}/link`)).body;
      expect(listed[0].text).toContain(`/f/${token}`);
    } finally {
      await plain.stop();
    }
  });
});

describe('a sent invite after its client is erased', () => {
  it('keeps no token that opens: the sealed link token dies with the client key', async () => {
    const onboardingId = await sentOnboarding();
    await drain(service);
    const token = await latestToken(service, onboardingId);
    const sealed = async () =>
      (
        await service.database.pool.query('select link_token from mail_outbox where onboarding_id = $1', [
          onboardingId,
        ])
      ).rows[0].link_token;
    expect(await service.context.vault.open(await sealed())).toBe(token);
    const erased = await adminRequest(
      service,
      'POST',
      `/teams/${tenant.teamId}/clients/${tenant.clientId}/erase`,
    );
    expect(erased.status).toBe(202);
    await drain(service);
    service.context.vault.forget(tenant.clientId);
    expect(await service.context.vault.open(await sealed())).toBeNull();
  });
});
