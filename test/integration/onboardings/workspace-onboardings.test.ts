import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjections } from '../../../services/app/projections.ts';
import { rebuildProjections } from '../../../shared/projections/rebuild.ts';
import { readModelRows } from '../../helpers/read-models.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, createTemplate, request, updateTeam } from '../../helpers/tenant.ts';
import { addMember, Browser, signUp } from '../workspace-fixtures.ts';

/*
 * The workspace's onboardings over real HTTP and PostgreSQL: list filters and usage,
 * create, send with a PIN, resend with the 5-minute rule, assign, due date, cancel,
 * archive and unarchive, reopen (counts once more; refused at the limit), all scoped by
 * team; bad input changes nothing.
 */

let service: TestService;
let owner: Browser;
let member: Browser;
let memberId: string;
let teamId: string;
let other: Browser;
let templateId: string;
let snapshot: { steps: { id: string; fields: { id: string }[] }[] };

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  ({ owner, teamId } = await signUp(service, 'onb-owner@example.com', 'a long onboardings passphrase'));
  ({ browser: member, memberId } = await addMember(service, owner, 'onb-member@example.com', 'member'));
  ({ owner: other } = await signUp(service, 'onb-other@example.com', 'another onboardings passphrase'));
  templateId = (await createTemplate(service, teamId, { name: 'Intake' })).id;
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

let clientCounter = 0;
async function newOnboarding(body: Record<string, unknown> = {}) {
  const client = await member.call('POST', '/workspace/v1/clients', {
    name: `Client ${++clientCounter}`,
    email: `client${clientCounter}@example.com`,
  });
  expect(client.status).toBe(201);
  const created = await member.call('POST', '/workspace/v1/onboardings', {
    client_id: client.body.client.id,
    template_id: templateId,
    ...body,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  snapshot = created.body.onboarding.template_snapshot;
  return created.body.onboarding as { id: string; status: string };
}

const path = (id: string, action = '') => `/workspace/v1/onboardings/${id}${action}`;
const portal = (token: string, method: string, rest = '', body?: unknown, pin?: string) =>
  request(service, method, `/portal/v1/onboardings/${token}${rest}`, {
    body,
    headers: pin ? { 'x-onboarding-pin': pin } : {},
  });
/** The active link's token, as the operator reads it. */
const latestToken = async (_service: TestService, id: string): Promise<string> =>
  (await adminRequest(service, 'GET', `/onboardings/${id}/link`)).body.token;
const usage = async () => (await member.call('GET', '/workspace/v1/onboardings/usage')).body;
const streamTypes = async (id: string) =>
  (await service.context.eventStore.readStream(`onboarding-${id}`)).map((event) => event.type);

async function complete(id: string, pin?: string) {
  const token = await latestToken(service, id);
  expect((await portal(token, 'GET', '', undefined, pin)).status).toBe(200);
  const step = snapshot.steps[0]!;
  const saved = await portal(token, 'PUT', `/answers/${step.fields[0]!.id}`, { value: 'Ada' }, pin);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  expect((await portal(token, 'POST', `/steps/${step.id}/submit`, undefined, pin)).status).toBe(200);
  return token;
}

describe('workspace onboardings', () => {
  it('creates, sends with a PIN, asks before replacing an active client’s link, assigns and dates', async () => {
    const onboarding = await newOnboarding();
    expect(onboarding.status).toBe('draft');
    const sent = await member.call('POST', path(onboarding.id, '/send'), { pin: '123456' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.onboarding).toMatchObject({ status: 'sent', link: 'active', send_count: 1 });

    const token = await latestToken(service, onboarding.id);
    expect((await portal(token, 'GET')).status).toBe(401);
    expect((await portal(token, 'GET', '', undefined, '123456')).status).toBe(200);
    const field = snapshot.steps[0]!.fields[0]!.id;
    expect((await portal(token, 'PUT', `/answers/${field}`, { value: 'x' }, '123456')).status).toBe(200);

    const resend = await member.call('POST', path(onboarding.id, '/send'), {});
    expect(resend.status).toBe(409);
    expect(resend.body.code).toBe('requires_force');
    const forced = await member.call('POST', path(onboarding.id, '/send'), { force: true });
    expect(forced.status).toBe(200);
    expect(forced.body.onboarding.send_count).toBe(2);

    const assigned = await member.call('PATCH', path(onboarding.id), {
      assigned_to: memberId,
      due_on: '2030-01-31',
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body.onboarding).toMatchObject({
      assigned_to: memberId,
      assignee_name: 'onb-member@example.com',
      due_on: '2030-01-31',
    });
    const cleared = await member.call('PATCH', path(onboarding.id), { assigned_to: null, due_on: null });
    expect(cleared.body.onboarding).toMatchObject({ assigned_to: null, due_on: null, due_date: null });
    const events = await service.context.eventStore.readStream(`onboarding-${onboarding.id}`);
    expect(events.at(-1)?.metadata).toMatchObject({ actor_member_id: memberId });
  });

  it('filters by status, assignee, due date and archived, paginated', async () => {
    const assignedOne = await newOnboarding({ due_on: '2000-01-01' });
    await member.call('PATCH', path(assignedOne.id), { assigned_to: memberId });
    await member.call('POST', path(assignedOne.id, '/send'), {});
    const nextWeek = new Date(service.context.clock.now().getTime() + 3 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const soon = await newOnboarding({ due_on: nextWeek });
    const archived = await newOnboarding();
    expect((await member.call('POST', path(archived.id, '/archive'))).status).toBe(200);

    const ids = async (query: string) =>
      (await member.call('GET', `/workspace/v1/onboardings?${query}`)).body.data.map(
        (item: { id: string }) => item.id,
      );
    expect(await ids(`assignee=${memberId}`)).toEqual([assignedOne.id]);
    expect(await ids('due=overdue')).toEqual([assignedOne.id]);
    expect(await ids('due=week')).toEqual([soon.id]);
    expect(await ids('archived=only')).toEqual([archived.id]);
    expect(await ids('archived=hide')).not.toContain(archived.id);
    expect(await ids('due=none')).not.toContain(soon.id);
    expect(await ids('status=sent&assignee=unassigned')).not.toContain(assignedOne.id);
    const page = await member.call('GET', '/workspace/v1/onboardings?limit=1&offset=1');
    expect(page.body.data).toHaveLength(1);
    expect(page.body.total).toBeGreaterThan(1);

    const unarchived = await member.call('POST', path(archived.id, '/unarchive'));
    expect(unarchived.body.onboarding.archived_at).toBeNull();
    expect(await ids('archived=only')).toEqual([]);
    expect(await streamTypes(archived.id)).toEqual([
      'onboarding_created',
      'onboarding_archived',
      'onboarding_unarchived',
    ]);
  });

  it('cancels and reopens: a new link, started again on open, counted once more; at the limit refused', async () => {
    await updateTeam(service, teamId, { monthly_onboarding_limit: 100 } as never);
    const onboarding = await newOnboarding();
    const before = await usage();
    await member.call('POST', path(onboarding.id, '/send'), {});
    await complete(onboarding.id);
    // The client's link still opens their finished form: the page says so, not "not working".
    expect((await member.call('GET', path(onboarding.id))).body.onboarding).toMatchObject({
      status: 'completed',
      link: 'completed',
    });
    expect((await usage()).used).toBe(before.used + 1);

    const reopened = await member.call('POST', path(onboarding.id, '/reopen'), {});
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(reopened.body.onboarding).toMatchObject({ status: 'sent', link: 'active', send_count: 2 });
    expect((await usage()).used).toBe(before.used + 2);
    const token = await latestToken(service, onboarding.id);
    expect((await portal(token, 'GET')).status).toBe(200);
    const types = await streamTypes(onboarding.id);
    expect(types.slice(-2)).toEqual(['onboarding_reopened', 'onboarding.started']);
    const invites = await service.context.pool.query(
      `select count(*)::int as n from mail_outbox where onboarding_id = $1 and kind = 'invite'`,
      [onboarding.id],
    );
    expect(invites.rows[0].n).toBe(2);

    const cancelled = await member.call('POST', path(onboarding.id, '/cancel'));
    expect(cancelled.body.onboarding).toMatchObject({ status: 'cancelled', link: 'inactive' });
    const openReopen = await member.call('POST', path((await newOnboarding()).id, '/reopen'), {});
    expect(openReopen.status).toBe(409);
    expect(openReopen.body.code).toBe('invalid_state');

    // At the limit: refused with the spec's message, nothing changed.
    const now = await usage();
    await updateTeam(service, teamId, { monthly_onboarding_limit: now.used } as never);
    expect((await usage()).limit).toBe(now.used);
    const eventsBefore = await streamTypes(onboarding.id);
    const refused = await member.call('POST', path(onboarding.id, '/reopen'), {});
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'limit_reached', error: 'Monthly onboarding limit reached' });
    expect(await streamTypes(onboarding.id)).toEqual(eventsBefore);
    expect((await usage()).used).toBe(now.used);
    expect((await member.call('GET', path(onboarding.id))).body.onboarding.status).toBe('cancelled');
    await updateTeam(service, teamId, { monthly_onboarding_limit: 1000 } as never);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const onboarding = await newOnboarding();
    const before = await streamTypes(onboarding.id);
    for (const [method, suffix, body] of [
      ['POST', '/send', { pin: '12' }],
      ['POST', '/send', { pin: 'abcdef' }],
      ['POST', '/reopen', { pin: '1234567' }],
      ['PATCH', '', { due_on: '31/01/2030' }],
      ['PATCH', '', { assigned_to: 'nobody' }],
      ['PATCH', '', {}],
    ] as const) {
      const answer = await member.call(method, path(onboarding.id, suffix), body);
      expect(answer.status, `${suffix} ${JSON.stringify(body)}`).toBe(400);
    }
    const badCreate = await member.call('POST', '/workspace/v1/onboardings', {
      client_id: 'x',
      template_id: templateId,
    });
    expect(badCreate.status).toBe(400);
    const badList = await member.call('GET', '/workspace/v1/onboardings?due=someday');
    expect(badList.status).toBe(400);
    expect(await streamTypes(onboarding.id)).toEqual(before);
  });

  it("answers 404 for another team's onboarding, 401 without a session, and no one else's in lists", async () => {
    const onboarding = await newOnboarding();
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { due_on: null }],
      ['POST', '/send', {}],
      ['POST', '/cancel', undefined],
      ['POST', '/archive', undefined],
      ['POST', '/unarchive', undefined],
      ['POST', '/reopen', {}],
    ] as const) {
      expect((await other.call(method, path(onboarding.id, suffix), body)).status).toBe(404);
      expect((await new Browser(service).call(method, path(onboarding.id, suffix), body)).status).toBe(401);
    }
    expect((await other.call('GET', '/workspace/v1/onboardings')).body.total).toBe(0);
    expect(await streamTypes(onboarding.id)).toEqual(['onboarding_created']);
  });

  it('rebuilt read models equal the live tables after updates, reopens and unarchives', async () => {
    const onboarding = await newOnboarding();
    const client = (await member.call('GET', path(onboarding.id))).body.onboarding.client;
    expect(
      (await member.call('PATCH', `/workspace/v1/clients/${client.id}`, { name: 'Renamed', company: 'Acme' }))
        .status,
    ).toBe(200);
    await member.call('POST', path(onboarding.id, '/send'), {});
    await member.call('POST', path(onboarding.id, '/cancel'));
    await member.call('POST', path(onboarding.id, '/reopen'), { pin: '654321' });
    await member.call('POST', path(onboarding.id, '/archive'));
    await member.call('POST', path(onboarding.id, '/unarchive'));
    const erasedClient = (await newOnboarding()).id;
    const erasedClientId = (await member.call('GET', path(erasedClient))).body.onboarding.client.id;
    await member.call('PATCH', `/workspace/v1/clients/${erasedClientId}`, { email: 'moved@example.com' });
    expect((await member.call('POST', `/workspace/v1/clients/${erasedClientId}/erase`)).status).toBe(200);

    const live = await readModelRows(service.database.pool);
    // The update is in the read model, sealed at rest: the API opens it, the table holds no plain name.
    expect((await member.call('GET', `/workspace/v1/clients/${client.id}`)).body.client.name).toBe('Renamed');
    expect(live['clients']!.some((row) => row.includes('Renamed'))).toBe(false);
    await rebuildProjections(service.database.pool, service.context.eventStore, allProjections, () => {});
    expect(await readModelRows(service.database.pool)).toEqual(live);
    const after = await member.call('GET', path(onboarding.id));
    expect(after.body.onboarding).toMatchObject({
      status: 'sent',
      archived_at: null,
      client: { name: 'Renamed' },
    });
  });
});
