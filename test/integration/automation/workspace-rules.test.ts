import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { updateTeam } from '../../helpers/tenant.ts';
import { addMember, signUp, type Browser } from '../workspace-fixtures.ts';

/*
 * Automation rules in the workspace (owners and admins), over real HTTP and PostgreSQL:
 * the operator's rule commands with the member as actor, the latest-run line, Former team
 * member, the plan rule, CSRF.
 */

let service: TestService;
let owner: Browser;
let admin: Browser;
let member: Browser;
let teamId: string;
let ownerId: string;
let leaverId: string;
let adminId: string;
const password = 'correct horse battery staple';

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  ({
    owner,
    teamId,
    memberId: ownerId,
  } = await signUp(service, 'rules-owner@example.com', password, 'Rules'));
  ({ browser: admin, memberId: adminId } = await addMember(
    service,
    owner,
    'rules-admin@example.com',
    'admin',
  ));
  ({ browser: member } = await addMember(service, owner, 'rules-member@example.com', 'member'));
  ({ memberId: leaverId } = await addMember(service, owner, 'rules-leaver@example.com', 'member'));
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

const notify = (memberId: string) => ({
  type: 'notify_member',
  member_id: memberId,
  message: 'Hi {{client_name}}',
});

describe('workspace automation rules', () => {
  it('a member gets 403 forbidden on every rules route', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/automation-rules'],
      ['GET', '/automation-rules/placeholders'],
      ['GET', `/automation-rules/${id}`],
      ['POST', '/automation-rules', { name: 'x', trigger: 'onboarding.completed', action: notify(ownerId) }],
      ['PATCH', `/automation-rules/${id}`, { enabled: false }],
      ['DELETE', `/automation-rules/${id}`],
    ];
    for (const [method, path, body] of routes) {
      const answer = await member.call(method, `/workspace/v1${path}`, body);
      expect([method, path, answer.status, answer.body?.code]).toEqual([method, path, 403, 'forbidden']);
    }
  });

  it('create, list with the latest-run line, read, edit, switch and delete; the member is the actor', async () => {
    const created = await admin.call('POST', '/workspace/v1/automation-rules', {
      name: 'Tell Olive',
      trigger: 'onboarding.completed',
      action: notify(ownerId),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const rule = created.body.rule;
    expect(rule).toMatchObject({
      name: 'Tell Olive',
      enabled: true,
      latest_run: 'Has not run yet',
      action_warning: null,
      action: { type: 'notify_member', member_id: ownerId, member_status: 'current' },
    });
    const listed = await owner.call('GET', '/workspace/v1/automation-rules');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([rule]);
    expect((await owner.call('GET', `/workspace/v1/automation-rules/${rule.id}`)).body.rule).toEqual(rule);

    const renamed = await owner.call('PATCH', `/workspace/v1/automation-rules/${rule.id}`, {
      name: 'Tell the owner',
      enabled: false,
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.rule).toMatchObject({ name: 'Tell the owner', enabled: false });
    const { rows } = await service.context.pool.query<{ actor: string }>(
      `select metadata->>'actor_member_id' as actor from events where stream_id = $1 order by position`,
      [`automation_rule-${rule.id}`],
    );
    expect(rows.map((row) => row.actor)).toEqual([adminId, ownerId, ownerId]);

    const placeholders = await owner.call('GET', '/workspace/v1/automation-rules/placeholders');
    expect(placeholders.body.data.map((p: { placeholder: string }) => p.placeholder)).toContain(
      '{{client_name}}',
    );

    expect((await owner.call('DELETE', `/workspace/v1/automation-rules/${rule.id}`)).status).toBe(200);
    expect((await owner.call('GET', `/workspace/v1/automation-rules/${rule.id}`)).status).toBe(404);
    expect((await owner.call('GET', '/workspace/v1/automation-rules')).body.data).toEqual([]);
  });

  it('a rule naming a removed member shows Former team member and is not saved until a current member is chosen', async () => {
    const created = await owner.call('POST', '/workspace/v1/automation-rules', {
      name: 'Tell the leaver',
      trigger: 'onboarding.completed',
      action: notify(leaverId),
    });
    expect(created.status).toBe(201);
    const path = `/workspace/v1/automation-rules/${created.body.rule.id}`;
    expect((await owner.call('DELETE', `/workspace/v1/members/${leaverId}`)).status).toBe(200);

    const shown = await owner.call('GET', path);
    expect(shown.body.rule).toMatchObject({
      action_warning: 'Former team member',
      action: { member_id: leaverId, member_status: 'former' },
    });
    const renamed = await owner.call('PATCH', path, { name: 'Renamed' });
    expect([renamed.status, renamed.body.code]).toEqual([400, 'former_team_member']);
    const stillFormer = await owner.call('PATCH', path, { action: notify(leaverId) });
    expect(stillFormer.status).toBe(400);
    expect((await owner.call('GET', path)).body.rule.name).toBe('Tell the leaver');

    // Switching off stays possible.
    expect((await owner.call('PATCH', path, { enabled: false })).status).toBe(200);
    const fixed = await owner.call('PATCH', path, { name: 'Tell the admin', action: notify(adminId) });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.rule).toMatchObject({
      name: 'Tell the admin',
      action_warning: null,
      action: { member_id: adminId, member_status: 'current' },
    });
  });

  it('without automations in the plan: only switching off and deleting', async () => {
    const created = await owner.call('POST', '/workspace/v1/automation-rules', {
      name: 'Plan rule',
      trigger: 'onboarding.completed',
      action: notify(ownerId),
    });
    const path = `/workspace/v1/automation-rules/${created.body.rule.id}`;
    await updateTeam(service, teamId, { plan: 'starter' });
    const again = await owner.call('POST', '/workspace/v1/automation-rules', {
      name: 'Another',
      trigger: 'onboarding.completed',
      action: notify(ownerId),
    });
    expect([again.status, again.body.code]).toEqual([403, 'automations_plan_required']);
    expect((await owner.call('PATCH', path, { name: 'Edited' })).status).toBe(403);
    expect((await owner.call('PATCH', path, { enabled: false })).status).toBe(200);
    expect((await owner.call('PATCH', path, { enabled: true })).status).toBe(403);
    expect((await owner.call('DELETE', path)).status).toBe(200);
    await updateTeam(service, teamId, { plan: 'pro_trial' });
  });

  it('a POST without the CSRF token is refused and changes nothing', async () => {
    const before = await owner.call('GET', '/workspace/v1/automation-rules');
    const answer = await owner.call(
      'POST',
      '/workspace/v1/automation-rules',
      { name: 'Sneaky', trigger: 'onboarding.completed', action: notify(ownerId) },
      { 'x-csrf-token': 'wrong' },
    );
    expect([answer.status, answer.body.code]).toEqual([403, 'csrf_token_invalid']);
    expect((await owner.call('GET', '/workspace/v1/automation-rules')).body).toEqual(before.body);
  });
});
