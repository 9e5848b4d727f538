import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest, createApiKey, createTemplate } from '../../helpers/tenant.ts';
import { addMember, signUp, type Browser } from '../workspace-fixtures.ts';
import {
  createClient,
  createOnboarding,
  sendOnboarding,
  streamEvents,
  timers,
  twoStepTemplate,
  type Tenant,
} from '../onboardings-fixtures.ts';

/*
 * The team's default reminder schedule over real HTTP and PostgreSQL: owners and admins
 * change it in the workspace's team settings, a new onboarding copies it at creation and
 * uses it at each send, its due-relative reminders follow the due date, and onboardings
 * created before the change keep the schedule they had.
 */

const DAY_MS = 86_400_000;
const password = 'correct horse battery staple';
let service: TestService;
let owner: Browser;
let member: Browser;
let tenant: Tenant;

const schedule = [
  { when: 'after_send', days: 2 },
  { when: 'before_due', days: 3 },
  { when: 'after_due', days: 1 },
];

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  const team = await signUp(service, 'reminder-owner@example.com', password, 'Reminder Co');
  owner = team.owner;
  ({ browser: member } = await addMember(service, owner, 'reminder-member@example.com', 'member'));
  const key = await createApiKey(service, team.teamId);
  const withKey = { teamId: team.teamId, team: {} as never, ...key };
  const client = await createClient(service, withKey, 'Rita Reminder');
  const template = await createTemplate(service, team.teamId, twoStepTemplate());
  tenant = { ...withKey, clientId: client.id, templateId: template.id };
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

const plusDays = (from: Date | string, days: number) => new Date(new Date(from).getTime() + days * DAY_MS);

async function reminderTimers(onboardingId: string) {
  return (await timers(service, onboardingId))
    .filter((timer) => timer.kind === 'reminder')
    .map((timer) => ({ at: timer.due_at.toISOString(), status: timer.status }));
}

async function remindersEmailed(onboardingId: string) {
  const { rows } = await service.database.pool.query<{ count: number }>(
    "select count(*)::int as count from mail_outbox where onboarding_id = $1 and kind = 'reminder'",
    [onboardingId],
  );
  return rows[0]!.count;
}

describe('the default reminder schedule', () => {
  it('reads as 3 and 7 days after send until changed; a member may read but not change it', async () => {
    const read = await member.call('GET', '/workspace/v1/team');
    expect(read.body.team.reminder_schedule).toEqual([
      { when: 'after_send', days: 3 },
      { when: 'after_send', days: 7 },
    ]);
    const refused = await member.call('PATCH', '/workspace/v1/team', { reminder_schedule: schedule });
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
  });

  it.each([
    [[{ when: 'after_send', days: 0 }], 'the number of days must be a whole number from 1 to 365'],
    [[{ when: 'after_send', days: 2.5 }], 'the number of days must be a whole number from 1 to 365'],
    [[{ when: 'someday', days: 2 }], 'when must be after_send, before_due or after_due'],
    [
      [1, 2, 3, 4, 5, 6].map((days) => ({ when: 'after_send', days })),
      'A reminder schedule has at most 5 rules',
    ],
    [
      [
        { when: 'before_due', days: 2 },
        { when: 'before_due', days: 2 },
      ],
      'Reminder 2 repeats an earlier rule',
    ],
  ])('refuses %j with 400 invalid_body and a readable message', async (rules, message) => {
    const answer = await owner.call('PATCH', '/workspace/v1/team', { reminder_schedule: rules });
    expect([answer.status, answer.body.code]).toEqual([400, 'invalid_body']);
    expect(answer.body.message).toBe(message);
  });

  it('a new onboarding uses the team default at its creation; older onboardings keep theirs; due changes move due-relative reminders', async () => {
    const due = plusDays(service.clock.now(), 14).toISOString();
    const before = await createOnboarding(service, tenant, { due_date: due });

    const changed = await owner.call('PATCH', '/workspace/v1/team', { reminder_schedule: schedule });
    expect(changed.status).toBe(200);
    expect(changed.body.team.reminder_schedule).toEqual(schedule);
    expect((await member.call('GET', '/workspace/v1/team')).body.team.reminder_schedule).toEqual(schedule);
    // The change is in the audit view, with the owner as the actor.
    const audit = await owner.call('GET', '/workspace/v1/audit');
    const entry = (audit.body.data as { type: string; actor_member_id: string | null; data: any }[]).find(
      (row) => row.type === 'team_settings_changed',
    );
    expect(entry?.data).toEqual({ settings: ['reminder_schedule'], reminder_schedule: schedule });
    expect(entry?.actor_member_id).not.toBeNull();

    const after = await createOnboarding(service, tenant, { due_date: due });
    const [createdEvent] = await streamEvents(service, after.id);
    expect(createdEvent!.data).toMatchObject({ reminder_schedule: schedule });

    // Both are sent after the change: each uses the schedule it was created with.
    expect((await sendOnboarding(service, tenant, before.id)).status).toBe(200);
    expect((await sendOnboarding(service, tenant, after.id)).status).toBe(200);
    const sentAt = service.clock.now();
    expect(await reminderTimers(before.id)).toEqual([
      { at: plusDays(sentAt, 3).toISOString(), status: 'scheduled' },
      { at: plusDays(sentAt, 7).toISOString(), status: 'scheduled' },
    ]);
    const expected = [plusDays(sentAt, 2), plusDays(due, -3), plusDays(due, 1)].map((at) => at.toISOString());
    expect(await reminderTimers(after.id)).toEqual(expected.map((at) => ({ at, status: 'scheduled' })));
    const sent = (await streamEvents(service, after.id)).at(-1)!;
    expect(sent.type).toBe('onboarding.sent');
    expect(sent.data['reminders_at']).toEqual(expected);

    // Two days on, the after-send reminder goes out once.
    service.clock.advance(2 * 86_400 + 60);
    expect((await adminRequest(service, 'POST', '/work/drain')).status).toBe(200);
    expect(await remindersEmailed(after.id)).toBe(1);

    // The due date moves a week later: the due-relative reminders follow it, the sent one is not sent again.
    const later = plusDays(due, 7).toISOString();
    const moved = await apiRequest(service, tenant.apiKey, 'PATCH', `/onboardings/${after.id}`, {
      body: { due_date: later },
    });
    expect(moved.status).toBe(200);
    expect(await reminderTimers(after.id)).toEqual(
      [
        { at: expected[0]!, status: 'fired' },
        { at: expected[1]!, status: 'cancelled' },
        { at: expected[2]!, status: 'cancelled' },
        { at: plusDays(later, -3).toISOString(), status: 'scheduled' },
        { at: plusDays(later, 1).toISOString(), status: 'scheduled' },
      ].sort((a, b) => a.at.localeCompare(b.at)),
    );
    expect((await adminRequest(service, 'POST', '/work/drain')).status).toBe(200);
    expect(await remindersEmailed(after.id)).toBe(1);

    // Cleared: no due-relative reminders are left; the other onboarding still has its own.
    const cleared = await apiRequest(service, tenant.apiKey, 'PATCH', `/onboardings/${after.id}`, {
      body: { due_date: null },
    });
    expect(cleared.status).toBe(200);
    expect((await reminderTimers(after.id)).filter((timer) => timer.status === 'scheduled')).toEqual([]);
    expect((await reminderTimers(before.id)).map((timer) => timer.status)).toEqual([
      'scheduled',
      'scheduled',
    ]);
  });
});
