import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { addMember, createApiKey, createTeamWithKey, removeMember } from '../../helpers/tenant.ts';
import {
  archive,
  createOnboarding,
  createTenant,
  eraseClient,
  expire,
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

let service: TestService;
let tenant: Tenant;

beforeAll(async () => {
  service = await startTestService();
  service.clock.set(new Date('2025-03-10T15:00:00.000Z'));
  tenant = await createTenant(service, { timezone: 'Europe/Paris' });
});
afterAll(async () => service?.stop());

const patch = (id: string, body: unknown, apiKey = tenant.apiKey) =>
  onboardingRequest(service, { apiKey }, 'PATCH', `/${id}`, { body });

const status = async (id: string) =>
  (await onboardingRequest(service, tenant, 'GET', `/${id}?archived=all`)).body.onboarding.status;

async function draft() {
  return (await createOnboarding(service, tenant)).id;
}

async function sent() {
  const id = await draft();
  const answer = await sendOnboarding(service, tenant, id);
  expect(answer.status).toBe(200);
  return id;
}

async function inProgress() {
  const id = await sent();
  await openLink(service, id, await latestToken(service, id));
  expect(await status(id)).toBe('in_progress');
  return id;
}

async function completed() {
  const id = await inProgress();
  const token = await latestToken(service, id);
  const [step1] = await templateIds(service, tenant, tenant.templateId);
  await saveAnswer(service, id, token, step1!.fieldIds[0]!);
  await submitStep(service, id, token, step1!.stepId);
  expect(await status(id)).toBe('completed');
  // Completion cancels the pending reminders.
  expect((await timers(service, id)).map((timer) => timer.status)).toEqual(['cancelled', 'cancelled']);
  return id;
}

async function expired() {
  const id = (await createOnboarding(service, tenant, { expires_at: '2025-03-11T00:00:00Z' })).id;
  await sendOnboarding(service, tenant, id);
  service.clock.advance(24 * 3600);
  await expire(service, id);
  expect(await status(id)).toBe('expired');
  return id;
}

async function cancelled() {
  const id = await draft();
  expect((await patch(id, { status: 'cancelled' })).status).toBe(200);
  return id;
}

const invalidState = {
  error: expect.any(String),
  code: 'invalid_state',
  message: expect.any(String),
  retryable: false,
  request_id: expect.any(String),
};

describe('PATCH /api/v1/onboardings/:id: the transition table', () => {
  it('draft --status=cancelled--> cancelled: the link is deactivated', async () => {
    const id = await draft();
    const answer = await patch(id, { status: 'cancelled' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      onboarding: {
        id,
        status: 'cancelled',
        progress_pct: 0,
        due_date: null,
        due_on: null,
        due_timezone: null,
        assigned_to: null,
      },
    });
    expect(await status(id)).toBe('cancelled');
    const links = await service.database.pool.query(
      'select count(*)::int as active from onboarding_links where onboarding_id = $1 and deactivated_at is null',
      [id],
    );
    expect(links.rows[0].active).toBe(0);
  });

  it('sent --status=cancelled--> cancelled: the link is deactivated and pending reminders cancelled', async () => {
    const id = await sent();
    expect((await timers(service, id)).filter((timer) => timer.status === 'scheduled')).toHaveLength(2);
    const answer = await patch(id, { status: 'cancelled' });
    expect(answer.status).toBe(200);
    expect(answer.body.onboarding.status).toBe('cancelled');
    expect((await timers(service, id)).map((timer) => timer.status)).toEqual(['cancelled', 'cancelled']);
    const links = await service.database.pool.query(
      'select count(*)::int as active from onboarding_links where onboarding_id = $1 and deactivated_at is null',
      [id],
    );
    expect(links.rows[0].active).toBe(0);
  });

  it('sent --status=in_progress--> in_progress', async () => {
    const id = await sent();
    const answer = await patch(id, { status: 'in_progress' });
    expect(answer.status).toBe(200);
    expect(answer.body.onboarding.status).toBe('in_progress');
    expect(await status(id)).toBe('in_progress');
    expect((await streamEvents(service, id)).at(-1)!.type).toBe('onboarding_marked_in_progress');
  });

  it('in_progress --status=cancelled--> cancelled', async () => {
    const id = await inProgress();
    const answer = await patch(id, { status: 'cancelled' });
    expect(answer.status).toBe(200);
    expect(answer.body.onboarding.status).toBe('cancelled');
    expect((await timers(service, id)).every((timer) => timer.status === 'cancelled')).toBe(true);
  });
});

describe('PATCH: every other move is 409 invalid_state and changes nothing', () => {
  const cases: [string, () => Promise<string>, 'cancelled' | 'in_progress'][] = [
    ['draft -> in_progress', draft, 'in_progress'],
    ['in_progress -> in_progress', inProgress, 'in_progress'],
    ['completed -> cancelled', completed, 'cancelled'],
    ['completed -> in_progress', completed, 'in_progress'],
    ['cancelled -> cancelled', cancelled, 'cancelled'],
    ['cancelled -> in_progress', cancelled, 'in_progress'],
    ['expired -> cancelled', expired, 'cancelled'],
    ['expired -> in_progress', expired, 'in_progress'],
  ];
  it.each(cases)('%s', async (_name, make, target) => {
    const id = await make();
    const before = await status(id);
    const length = (await streamEvents(service, id)).length;
    const answer = await patch(id, { status: target, due_date: '2025-12-31' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual(invalidState);
    expect(await status(id)).toBe(before);
    expect(await streamEvents(service, id)).toHaveLength(length);
  });
});

describe('PATCH: body rules', () => {
  it.each([
    ['completed', { status: 'completed' }],
    ['draft', { status: 'draft' }],
    ['sent', { status: 'sent' }],
    ['expired', { status: 'expired' }],
    ['no supported field', {}],
    ['only unknown fields', { priority: 'high' }],
    ['a numeric assigned_to', { assigned_to: 42 }],
    ['a null body', null],
  ])('status or body %s: 400 invalid_body', async (_name, body) => {
    const id = await draft();
    const answer = await patch(id, body);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid_body');
    expect(await status(id)).toBe('draft');
  });

  it('a non-UUID id is 400 invalid_body; unknown and another team’s ids are 404 target_unavailable', async () => {
    const bad = await patch('not-a-uuid', { status: 'cancelled' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_body');
    const unknown = await patch(randomUUID(), { status: 'cancelled' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'target_unavailable', error: 'Onboarding not found' });
    const other = await createTeamWithKey(service);
    const foreign = await patch(await draft(), { status: 'cancelled' }, other.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('target_unavailable');
  });

  it('archived: 404 target_unavailable, whatever the body', async () => {
    const id = await sent();
    await archive(service, id);
    for (const body of [{ status: 'cancelled' }, { due_date: null }, { assigned_to: null }]) {
      const answer = await patch(id, body);
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('target_unavailable');
    }
  });

  it('an onboarding of an erased client: 404 target_unavailable', async () => {
    const id = await draft();
    await eraseClient(service, tenant.clientId, [id]);
    const answer = await patch(id, { status: 'cancelled' });
    expect(answer.status).toBe(404);
    tenant = await createTenant(service, { timezone: 'Europe/Paris' });
  });

  it('a body without the scope: 403 after validation', async () => {
    const readOnly = await createApiKey(service, tenant.teamId, ['onboardings:read']);
    const id = await draft();
    expect((await patch(id, {}, readOnly.apiKey)).body.code).toBe('invalid_body');
    expect((await patch(id, { status: 'cancelled' }, readOnly.apiKey)).body.code).toBe(
      'api_key_scope_denied',
    );
  });
});

describe('PATCH: due_date', () => {
  it('sets a calendar date (end of day in the team time zone), a timestamp, and null clears', async () => {
    const id = await draft();
    const date = await patch(id, { due_date: '2025-07-01' });
    expect(date.status).toBe(200);
    expect(date.body.onboarding).toMatchObject({
      due_date: '2025-07-01T23:59:59.999+02:00',
      due_on: '2025-07-01',
      due_timezone: 'Europe/Paris',
    });
    const timestamp = await patch(id, { due_date: '2025-07-02T08:00:00-05:00' });
    expect(timestamp.body.onboarding).toMatchObject({
      due_date: '2025-07-02T08:00:00.000-05:00',
      due_on: null,
      due_timezone: null,
    });
    const cleared = await patch(id, { due_date: null });
    expect(cleared.body.onboarding).toMatchObject({ due_date: null, due_on: null, due_timezone: null });
    const got = await onboardingRequest(service, tenant, 'GET', `/${id}`);
    expect(got.body.onboarding.due_date).toBeNull();
  });

  it('a due date on a sent onboarding schedules the overdue timer; a new date moves it', async () => {
    const id = await sent();
    await patch(id, { due_date: '2025-04-01T12:00:00Z' });
    await patch(id, { due_date: '2025-04-02T12:00:00Z' });
    const overdue = (await timers(service, id)).filter((timer) => timer.kind === 'overdue');
    expect(overdue.map((timer) => [timer.due_at.toISOString(), timer.status])).toEqual([
      ['2025-04-01T12:00:00.000Z', 'cancelled'],
      ['2025-04-02T12:00:00.000Z', 'scheduled'],
    ]);
  });

  it.each(['2025-06-31', 'next week', 5, '2025-06-01 10:00'])(
    'due_date %j: 400 invalid_deadline',
    async (value) => {
      const id = await draft();
      const answer = await patch(id, { due_date: value });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'invalid_deadline', retryable: false });
    },
  );
});

describe('PATCH: assigned_to', () => {
  it('a current member assigns; null and "" unassign', async () => {
    const member = await addMember(service, tenant.teamId);
    const id = await draft();
    const assigned = await patch(id, { assigned_to: member.id });
    expect(assigned.status).toBe(200);
    expect(assigned.body.onboarding.assigned_to).toBe(member.id);
    expect((await onboardingRequest(service, tenant, 'GET', `/${id}`)).body.onboarding.assigned_to).toBe(
      member.id,
    );
    expect((await patch(id, { assigned_to: null })).body.onboarding.assigned_to).toBeNull();
    await patch(id, { assigned_to: member.id });
    expect((await patch(id, { assigned_to: '' })).body.onboarding.assigned_to).toBeNull();
  });

  it('a removed member, another team’s member, an unknown id or any other string: 400 invalid_assignee', async () => {
    const removed = await addMember(service, tenant.teamId);
    await removeMember(service, tenant.teamId, removed.id);
    const other = await createTeamWithKey(service);
    const foreign = await addMember(service, other.teamId);
    const id = await draft();
    for (const value of [removed.id, foreign.id, randomUUID(), 'alice']) {
      const answer = await patch(id, { assigned_to: value, status: 'cancelled' });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'invalid_assignee',
        error: 'assigned_to must be a current team member ID',
      });
    }
    expect(await status(id)).toBe('draft');
  });

  it('status, due date and assignee in one PATCH', async () => {
    const member = await addMember(service, tenant.teamId);
    const id = await sent();
    const answer = await patch(id, { status: 'in_progress', due_date: '2025-08-01', assigned_to: member.id });
    expect(answer.status).toBe(200);
    expect(answer.body.onboarding).toMatchObject({
      status: 'in_progress',
      due_on: '2025-08-01',
      assigned_to: member.id,
    });
  });
});
