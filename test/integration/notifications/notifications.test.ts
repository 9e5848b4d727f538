import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjections } from '../../../services/app/projections.ts';
import { notificationsConsumer } from '../../../services/notifications/index.ts';
import { inTransaction } from '../../../shared/db/pool.ts';
import { rebuildProjections } from '../../../shared/projections/rebuild.ts';
import { handleOnce } from '../../../shared/subscriptions/processed-events.ts';
import { startSmtpServer, type SmtpTestServer } from '../../helpers/smtp.ts';
import type { TestService } from '../../helpers/service.ts';
import { apiRequest, createApiKey, createTemplate, request } from '../../helpers/tenant.ts';
import { advance, drain, minutes, startOutboundService } from '../automation-fixtures.ts';
import {
  createClient,
  eraseClient,
  latestToken,
  templateIds,
  twoStepTemplate,
  type Tenant,
} from '../onboardings-fixtures.ts';
import { addMember, Browser, signUp } from '../workspace-fixtures.ts';

/*
 * Notifications end to end: onboardings completed through the API and the portal, the
 * consumer writing members' notifications, the digest pass and the mailer sending through a
 * real SMTP server, the bell's routes read by signed-in members of two teams.
 */

let smtp: SmtpTestServer;
let service: TestService;
let tenant: Tenant;
let owner: Browser;
let admin: Browser;
let member: { browser: Browser; memberId: string };
let stranger: Browser;

beforeAll(async () => {
  smtp = await startSmtpServer();
  service = await startOutboundService({ SMTP_URL: smtp.url });
  const team = await signUp(service, 'owner@notify.example', 'a long owner passphrase', 'Acme');
  owner = team.owner;
  admin = (await addMember(service, owner, 'admin@notify.example', 'admin')).browser;
  member = await addMember(service, owner, 'member@notify.example', 'member');
  stranger = (await signUp(service, 'owner@other.example', 'a long other passphrase', 'Other')).owner;
  const key = await createApiKey(service, team.teamId);
  const withKey = { teamId: team.teamId, team: {} as never, ...key };
  await drain(service);
  const client = await createClient(service, withKey, 'Grace Hopper');
  const template = await createTemplate(service, team.teamId, twoStepTemplate());
  tenant = { ...withKey, clientId: client.id, templateId: template.id };
  await drain(service);
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await smtp?.close();
});

/** The digests (not the account mail) sent to `address`. */
const mailsTo = (address: string) =>
  smtp.messages.filter((mail) => mail.envelope.to.includes(address) && mail.subject.includes('attention'));
const bell = async (browser: Browser) => {
  const answer = await browser.call('GET', '/workspace/v1/notifications');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { unread_count: number; total: number; data: Record<string, unknown>[] };
};

/** Creates, assigns (or not), sends and completes an onboarding through the API and the portal. */
async function complete(assignee: string | null): Promise<string> {
  const api = (method: string, path: string, body?: unknown) =>
    apiRequest(service, tenant.apiKey, method, `/onboardings${path}`, { body });
  const created = await api('POST', '', { template_id: tenant.templateId, client_id: tenant.clientId });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.onboarding.id as string;
  if (assignee) expect((await api('PATCH', `/${id}`, { assigned_to: assignee })).status).toBe(200);
  expect((await api('POST', `/${id}/send`)).status).toBe(200);
  const token = await latestToken(service, id);
  const [about] = await templateIds(service, tenant, tenant.templateId);
  const portal = (method: string, path: string, body?: unknown) =>
    request(service, method, `/portal/v1/onboardings/${token}${path}`, { body });
  expect((await portal('GET', '')).status).toBe(200);
  expect((await portal('PUT', `/answers/${about!.fieldIds[0]}`, { value: 'Grace' })).status).toBe(200);
  const submitted = await portal('POST', `/steps/${about!.stepId}/submit`);
  expect(submitted.body.onboarding.status).toBe('completed');
  // The consumer has written the notifications before the test moves the clock.
  await drain(service);
  return id;
}

describe('notifications', () => {
  it("a completion tells the assignee in the app at once and by one email after the digest's quiet window", async () => {
    const id = await complete(member.memberId);
    await drain(service);
    const list = await bell(member.browser);
    expect(list.unread_count).toBe(1);
    expect(list.data[0]).toMatchObject({
      kind: 'completed',
      onboarding_id: id,
      client_name: 'Grace Hopper',
      template_name: 'Tax intake',
      read: false,
    });
    expect(mailsTo('member@notify.example')).toHaveLength(0);
    await advance(service, minutes(3));
    const [mail, ...more] = mailsTo('member@notify.example');
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('[Acme] 1 onboarding needs your attention');
    expect(mail!.text).toContain(`https://forms.example.com/workspace/onboardings/${id}`);
    expect(mail!.html).toContain('Tax intake');
    // Nobody else of the team, nor of another team, hears of it.
    expect((await bell(owner)).total).toBe(0);
    expect((await bell(admin)).total).toBe(0);
    expect((await bell(stranger)).total).toBe(0);
    expect(mailsTo('owner@notify.example')).toHaveLength(0);

    const read = await member.browser.call('POST', '/workspace/v1/notifications/read', { all: true });
    expect(read.body).toEqual({ unread_count: 0 });
    // Another member's ids change nothing of theirs.
    const other = await stranger.call('POST', '/workspace/v1/notifications/read', {
      ids: [list.data[0]!.id],
    });
    expect(other.body).toEqual({ unread_count: 0 });
  });

  it('an unassigned onboarding tells every owner and admin, not the members', async () => {
    const before = mailsTo('member@notify.example').length;
    await complete(null);
    await advance(service, minutes(3));
    expect((await bell(owner)).unread_count).toBe(1);
    expect((await bell(admin)).unread_count).toBe(1);
    expect((await bell(member.browser)).unread_count).toBe(0);
    expect(mailsTo('admin@notify.example')).toHaveLength(1);
    expect(mailsTo('owner@notify.example')).toHaveLength(1);
    expect(mailsTo('member@notify.example')).toHaveLength(before);
  });

  it('a burst of 5 completions becomes one digest listing 5', async () => {
    const before = mailsTo('member@notify.example').length;
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) ids.push(await complete(member.memberId));
    await advance(service, minutes(1));
    expect(mailsTo('member@notify.example')).toHaveLength(before);
    await advance(service, minutes(2));
    const mails = mailsTo('member@notify.example').slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('[Acme] 5 onboardings need your attention');
    for (const id of ids) expect(mails[0]!.text).toContain(id);
    expect((await bell(member.browser)).unread_count).toBe(5);
  });

  it('the choices are kept: in-app only sends no email, off tells nothing', async () => {
    const get = await member.browser.call('GET', '/workspace/v1/me/notification-preferences');
    expect(get.body.preferences).toEqual({
      completed: 'email',
      resubmitted: 'email',
      signed: 'email',
      paid: 'email',
      overdue: 'email',
    });
    const choose = (completed: string) =>
      member.browser.call('PUT', '/workspace/v1/me/notification-preferences', {
        preferences: { ...get.body.preferences, completed },
      });
    expect((await choose('in_app')).body.preferences.completed).toBe('in_app');
    const mails = mailsTo('member@notify.example').length;
    const unread = (await bell(member.browser)).unread_count;
    await complete(member.memberId);
    await advance(service, minutes(20));
    expect((await bell(member.browser)).unread_count).toBe(unread + 1);
    expect(mailsTo('member@notify.example')).toHaveLength(mails);

    expect((await choose('off')).status).toBe(200);
    await complete(member.memberId);
    await advance(service, minutes(20));
    expect((await bell(member.browser)).unread_count).toBe(unread + 1);
    expect(mailsTo('member@notify.example')).toHaveLength(mails);
    expect((await choose('email')).status).toBe(200);
    // Another team's member has choices of their own.
    const theirs = await stranger.call('GET', '/workspace/v1/me/notification-preferences');
    expect(theirs.body.preferences.completed).toBe('email');
  });

  it('answers sent back and resubmitted tell the assignee', async () => {
    const id = await complete(member.memberId);
    const [about] = await templateIds(service, tenant, tenant.templateId);
    const fieldId = about!.fieldIds[0]!;
    const sent = await member.browser.call('POST', `/workspace/v1/onboardings/${id}/answers/send-back`, {
      answers: [{ field_id: fieldId, decision: 'reject', reason: 'Your full legal name, please' }],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const token = await latestToken(service, id);
    const portal = (method: string, path: string, body?: unknown) =>
      request(service, method, `/portal/v1/onboardings/${token}${path}`, { body });
    expect((await portal('PUT', `/answers/${fieldId}`, { value: 'Grace B. Hopper' })).status).toBe(200);
    expect((await portal('POST', `/steps/${about!.stepId}/submit`)).status).toBe(200);
    await drain(service);
    const { data } = await bell(member.browser);
    expect(data.filter((entry) => entry.onboarding_id === id).map((entry) => entry.kind)).toEqual([
      'resubmitted',
      'completed',
    ]);
  });

  it('an onboarding that goes overdue tells its assignee', async () => {
    const api = (method: string, path: string, body?: unknown) =>
      apiRequest(service, tenant.apiKey, method, `/onboardings${path}`, { body });
    const dueDate = new Date(service.clock.now().getTime() + 3_600_000).toISOString();
    const created = await api('POST', '', {
      template_id: tenant.templateId,
      client_id: tenant.clientId,
      due_date: dueDate,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.onboarding.id as string;
    expect((await api('PATCH', `/${id}`, { assigned_to: member.memberId })).status).toBe(200);
    expect((await api('POST', `/${id}/send`)).status).toBe(200);
    await advance(service, minutes(90));
    await drain(service);
    const [newest] = (await bell(member.browser)).data;
    expect(newest).toMatchObject({ kind: 'overdue', onboarding_id: id });
    await advance(service, minutes(3));
    // Its digest (the clock passed the due time, then the quiet window) says so.
    expect(mailsTo('member@notify.example').at(-1)!.text).toContain('Overdue: Tax intake');
  });

  it('a redelivery of every event and a rebuild of the read models notify and email nothing again', async () => {
    const count = async () =>
      (await service.database.pool.query<{ n: number }>('select count(*)::int as n from notifications'))
        .rows[0]!.n;
    const rows = await count();
    const mails = smtp.messages.length;
    const { rows: events } = await service.database.pool.query<{ stream_id: string }>(
      `select distinct stream_id from events where type = 'onboarding.completed'`,
    );
    const consumer = notificationsConsumer(service.context);
    for (const { stream_id: streamId } of events) {
      for (const event of await service.context.eventStore.readStream(streamId)) {
        if (!consumer.eventTypes!.includes(event.type)) continue;
        await inTransaction(service.database.pool, (tx) => handleOnce(tx, consumer, event));
      }
    }
    await rebuildProjections(service.database.pool, service.context.eventStore, allProjections, () => {});
    await advance(service, minutes(20));
    expect(await count()).toBe(rows);
    expect(smtp.messages.length).toBe(mails);
  });

  it("an erased client's name leaves the notifications", async () => {
    await eraseClient(service, tenant.clientId);
    const list = await bell(member.browser);
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.data.every((entry) => entry.client_name === null)).toBe(true);
  });
});
