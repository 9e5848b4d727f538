import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest, createApiKey, createTemplate, type Team } from '../../helpers/tenant.ts';
import { addMember, Browser, capturedLogger, signUp } from '../workspace-fixtures.ts';
import { formIds, formTemplate, sentOnboarding, type Tenant } from '../portal-fixtures.ts';

/*
 * The client's link and "Send a reminder now" over real HTTP and PostgreSQL: a member reads
 * the client's current link (no-store, never logged) and sends a reminder with a personal
 * message: the reminder email holds the message and the link, the timeline and the events
 * feed name the member and never the message; 60 reminders at once pass exactly the limit
 * (3 in 24 hours), the rest refused in words with Retry-After; drafts, cancelled onboardings,
 * long messages, other teams and signed-out requests are refused and change nothing.
 */

let service: TestService;
let tenant: Tenant;
let member: Browser;
let stranger: Browser;
const log = capturedLogger();
const MESSAGE = 'Hi Ada, the bank statements are the last thing we need before Friday.';

const linkOf = (id: string, who = member) => who.call('GET', `/workspace/v1/onboardings/${id}/link`);
const remind = (id: string, body: unknown = {}, who = member) =>
  who.call('POST', `/workspace/v1/onboardings/${id}/remind`, body);

/** The team's reminder emails of the onboarding, newest first (the operator's view of the outbox). */
async function reminderEmails(id: string) {
  const answer = await adminRequest(service, 'GET', `/teams/${tenant.teamId}/emails`);
  expect(answer.status).toBe(200);
  return (
    answer.body.emails as Array<{ kind: string; onboarding_id: string; text: string; to: string }>
  ).filter((email) => email.kind === 'reminder' && email.onboarding_id === id);
}

const sent = () => sentOnboarding(service, tenant);

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off', LOG_LEVEL: 'info' }, { logger: log.logger });
  const team = await signUp(service, 'link-owner@example.com', 'a long link passphrase');
  ({ browser: member } = await addMember(service, team.owner, 'link-member@example.com', 'member'));
  ({ owner: stranger } = await signUp(
    service,
    'link-stranger@example.com',
    'a long stranger passphrase',
    'Other',
  ));
  const key = await createApiKey(service, team.teamId);
  const template = await createTemplate(service, team.teamId, formTemplate());
  tenant = {
    ...key,
    teamId: team.teamId,
    team: { id: team.teamId } as Team,
    template,
    ids: formIds(template),
  };
}, 90_000);
afterAll(async () => {
  await service?.stop();
});

describe('the client’s link', () => {
  it('answers the current link, no-store, and never logs it; a draft has none, and says why', async () => {
    const { onboardingId, token } = await sent();
    const link = await linkOf(onboardingId);
    expect(link.status).toBe(200);
    expect(link.headers.get('cache-control')).toBe('no-store');
    expect(link.body).toEqual({
      url: `${service.context.settings.PUBLIC_URL}/f/${token}`,
      reason: null,
      pin_required: false,
      reminders: { limit: 3, window_hours: 24, next_at: service.clock.now().toISOString() },
    });
    expect(log.lines.join('\n')).not.toContain(token);

    const client = await apiRequest(service, tenant.apiKey, 'POST', '/clients', {
      body: { name: 'Grace', email: 'grace.draft@example.com' },
    });
    const draft = await apiRequest(service, tenant.apiKey, 'POST', '/onboardings', {
      body: { template_id: tenant.template.id, client_id: client.body.client.id },
    });
    const none = await linkOf(draft.body.onboarding.id as string);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ url: null, reason: 'not_sent', reminders: { next_at: null } });
    const refused = await remind(draft.body.onboarding.id as string);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('invalid_state');
  });

  it('another team’s member finds nothing (404); signed out is 401', async () => {
    const { onboardingId } = await sent();
    expect((await linkOf(onboardingId, stranger)).status).toBe(404);
    expect((await remind(onboardingId, {}, stranger)).status).toBe(404);
    expect((await linkOf(onboardingId, new Browser(service))).status).toBe(401);
    expect((await remind(onboardingId, {}, new Browser(service))).status).toBe(401);
    // Without the CSRF token a reminder is refused before anything runs.
    expect((await remind(onboardingId, {}, Object.assign(member.copy(), { csrf: '' }))).status).toBe(403);
    expect(await reminderEmails(onboardingId)).toEqual([]);
  });
});

describe('Send a reminder now', () => {
  it('emails the member’s message with the link; the timeline and the feed name the member, not the message', async () => {
    const { onboardingId, token } = await sent();
    const answer = await remind(onboardingId, { message: MESSAGE });
    expect(answer.status).toBe(201);
    expect(answer.body.reminders.next_at).toBe(service.clock.now().toISOString());

    const [email] = await reminderEmails(onboardingId);
    expect(email!.to).toMatch(/@example\.com$/);
    expect(email!.text).toContain(MESSAGE);
    expect(email!.text).toContain(`/f/${token}`);

    const timeline = await member.call('GET', `/workspace/v1/onboardings/${onboardingId}/timeline`);
    const entry = (
      timeline.body.entries as Array<{ kind: string; actor: { type: string; name?: string } }>
    ).find((one) => one.kind === 'client_reminded');
    expect(entry?.actor).toMatchObject({ type: 'member', name: expect.any(String) });
    expect(JSON.stringify(timeline.body)).not.toContain('bank statements');

    const feed = await apiRequest(service, tenant.apiKey, 'GET', '/events?limit=100');
    const reminded = (feed.body.events as Array<{ type: string; onboarding_id: string | null }>).filter(
      (event) => event.type === 'client_reminded' && event.onboarding_id === onboardingId,
    );
    expect(reminded).toHaveLength(1);
    expect(JSON.stringify(feed.body)).not.toContain('bank statements');
    expect(log.lines.join('\n')).not.toContain('bank statements');
    expect(log.lines.join('\n')).not.toContain(token);
  });

  it('60 reminders at once: exactly 3 go, the rest are refused in words with Retry-After', async () => {
    const { onboardingId } = await sent();
    const answers = await Promise.all(Array.from({ length: 60 }, () => remind(onboardingId)));
    const counts: Record<number, number> = {};
    for (const one of answers) counts[one.status] = (counts[one.status] ?? 0) + 1;
    expect(counts).toEqual({ 201: 3, 429: 57 });
    const refused = answers.find((one) => one.status === 429)!;
    expect(refused.body).toMatchObject({
      code: 'reminder_limit_reached',
      error: 'Three reminders were sent to this client in the last 24 hours; the next can go later',
    });
    expect(Number(refused.headers.get('retry-after'))).toBe(24 * 3600);
    expect(await reminderEmails(onboardingId)).toHaveLength(3);
    expect((await linkOf(onboardingId)).body.reminders.next_at).toBe(
      new Date(service.clock.now().getTime() + 24 * 3_600_000).toISOString(),
    );
  });

  it('refuses a draft, a cancelled onboarding and a message over 1000 characters, and sends nothing', async () => {
    const { onboardingId } = await sent();
    const long = await remind(onboardingId, { message: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('invalid_body');

    const cancel = await member.call('POST', `/workspace/v1/onboardings/${onboardingId}/cancel`);
    expect(cancel.status).toBe(200);
    const closed = await remind(onboardingId);
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('invalid_state');
    expect((await linkOf(onboardingId)).body).toMatchObject({ url: null, reason: 'closed' });
    expect(await reminderEmails(onboardingId)).toEqual([]);
  });
});
