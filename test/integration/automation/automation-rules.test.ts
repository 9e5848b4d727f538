import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  addMember,
  adminRequest,
  createTeam,
  createTemplate,
  createGalleryTemplate,
  deleteTemplate,
  removeMember,
  updateTeam,
} from '../../helpers/tenant.ts';

/*
 * The operator routes of automation rules (operator-and-portal-api.md):
 * POST/GET/PATCH/DELETE /admin/v1/teams/:team_id/automation-rules[/:rule_id].
 */

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off', HOOK_TARGET_ALLOWLIST: 'localhost' });
});
afterAll(async () => service?.stop());

const rules = (teamId: string) => `/teams/${teamId}/automation-rules`;
const post = (teamId: string, body: unknown) => adminRequest(service, 'POST', rules(teamId), body);
const get = (teamId: string, ruleId: string) => adminRequest(service, 'GET', `${rules(teamId)}/${ruleId}`);
const patch = (teamId: string, ruleId: string, body: unknown) =>
  adminRequest(service, 'PATCH', `${rules(teamId)}/${ruleId}`, body);
const remove = (teamId: string, ruleId: string) =>
  adminRequest(service, 'DELETE', `${rules(teamId)}/${ruleId}`);

const email = {
  type: 'send_email',
  subject: 'Thanks {{client_name}}',
  body: 'Hello {{client_name}},\nThanks!',
};
const webhook = { type: 'send_webhook', url: 'https://localhost:9/hooks' };

const issues = (body: any): string[] =>
  body.details?.issues?.map((issue: { message: string }) => issue.message) ?? [];

describe('POST automation-rules', () => {
  it('201 with the rule: on by default, latest_run "Has not run yet"', async () => {
    const team = await createTeam(service);
    const answer = await post(team.id, {
      name: 'Thank the client',
      trigger: 'onboarding.completed',
      action: email,
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      rule: {
        id: expect.any(String),
        name: 'Thank the client',
        trigger: 'onboarding.completed',
        action: email,
        enabled: true,
        latest_run: 'Has not run yet',
        action_warning: null,
      },
    });
    const read = await get(team.id, answer.body.rule.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ rule: answer.body.rule, latest_run: 'Has not run yet' });
  });

  it('each of the four triggers and four actions; enabled false creates a switched-off rule', async () => {
    const team = await createTeam(service);
    const template = await createTemplate(service, team.id);
    const member = await addMember(service, team.id);
    const actions = [
      email,
      webhook,
      { type: 'create_onboarding', template_id: template.id },
      { type: 'notify_member', member_id: member.id, message: '{{client_name}} is done' },
    ];
    const triggers = ['onboarding.completed', 'payment.succeeded', 'signature.signed', 'onboarding.overdue'];
    for (const [index, action] of actions.entries()) {
      const answer = await post(team.id, {
        name: `Rule ${index}`,
        trigger: triggers[index],
        action,
        enabled: false,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.rule).toMatchObject({ trigger: triggers[index], action, enabled: false });
    }
  });

  it('validation: name, trigger, subject, body, message lengths and presence; 400 invalid_body', async () => {
    const team = await createTeam(service);
    const member = await addMember(service, team.id);
    const cases: [unknown, string][] = [
      [{ trigger: 'onboarding.completed', action: email }, 'name is required'],
      [{ name: '  ', trigger: 'onboarding.completed', action: email }, 'name is required'],
      [
        { name: 'x'.repeat(201), trigger: 'onboarding.completed', action: email },
        'name must be 200 characters or fewer',
      ],
      [{ name: 'r', trigger: 'onboarding.sent', action: email }, ''],
      [
        { name: 'r', trigger: 'onboarding.completed', action: { ...email, subject: 's'.repeat(501) } },
        'subject must be 500 characters or fewer',
      ],
      [
        { name: 'r', trigger: 'onboarding.completed', action: { ...email, subject: '' } },
        'subject is required',
      ],
      [
        { name: 'r', trigger: 'onboarding.completed', action: { ...email, body: 'b'.repeat(10_001) } },
        'body must be 10,000 characters or fewer',
      ],
      [
        { name: 'r', trigger: 'onboarding.completed', action: { type: 'send_email', subject: 's' } },
        'body is required',
      ],
      [
        {
          name: 'r',
          trigger: 'onboarding.completed',
          action: { type: 'notify_member', member_id: member.id, message: 'm'.repeat(10_001) },
        },
        'message must be 10,000 characters or fewer',
      ],
      [
        {
          name: 'r',
          trigger: 'onboarding.completed',
          action: { type: 'notify_member', member_id: member.id, message: '' },
        },
        'message is required',
      ],
      [{ name: 'r', trigger: 'onboarding.completed', action: { type: 'launch_rocket' } }, ''],
    ];
    for (const [body, message] of cases) {
      const answer = await post(team.id, body);
      expect(answer.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(answer.body.code).toBe('invalid_body');
      if (message) expect(issues(answer.body)).toContain(message);
    }
    // At the limits: accepted.
    const atLimits = await post(team.id, {
      name: 'n'.repeat(200),
      trigger: 'onboarding.completed',
      action: { type: 'send_email', subject: 's'.repeat(500), body: 'b'.repeat(10_000) },
    });
    expect(atLimits.status).toBe(201);
  });

  it('webhook URL: public HTTPS, at most 500 characters (private hosts refused unless allowlisted)', async () => {
    const team = await createTeam(service);
    for (const url of [
      'http://localhost/hook',
      'https://127.0.0.1/hook',
      'https://10.0.0.8/hook',
      'https://user:pw@localhost/hook',
      'https://intranet/hook',
      `https://localhost/${'a'.repeat(500)}`,
      'not a url',
    ]) {
      const answer = await post(team.id, {
        name: 'w',
        trigger: 'onboarding.completed',
        action: { type: 'send_webhook', url },
      });
      expect(answer.status, url).toBe(400);
      expect(answer.body.code).toBe('invalid_body');
      expect(
        answer.body.error === 'url must be a public HTTPS URL' ||
          issues(answer.body).includes('url must be a public HTTPS URL'),
        url,
      ).toBe(true);
    }
    expect(
      (await post(team.id, { name: 'w', trigger: 'onboarding.completed', action: webhook })).status,
    ).toBe(201);
  });

  it("template: one of the team's templates (not another team's, not a gallery one, not deleted)", async () => {
    const team = await createTeam(service);
    const other = await createTeam(service);
    const theirs = await createTemplate(service, other.id);
    const gallery = await createGalleryTemplate(service);
    const deleted = await createTemplate(service, team.id);
    await deleteTemplate(service, team.id, deleted.id);
    for (const templateId of [theirs.id, gallery.id, deleted.id, randomUUID()]) {
      const answer = await post(team.id, {
        name: 'c',
        trigger: 'onboarding.completed',
        action: { type: 'create_onboarding', template_id: templateId },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'invalid_body',
        error: "template_id must be one of the team's templates",
      });
    }
  });

  it('member: a current member of the team', async () => {
    const team = await createTeam(service);
    const other = await createTeam(service);
    const stranger = await addMember(service, other.id);
    const left = await addMember(service, team.id);
    await removeMember(service, team.id, left.id);
    for (const memberId of [stranger.id, left.id, randomUUID()]) {
      const answer = await post(team.id, {
        name: 'n',
        trigger: 'onboarding.completed',
        action: { type: 'notify_member', member_id: memberId, message: 'hi' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'invalid_body',
        error: 'member_id must be a current team member',
      });
    }
  });

  it('404 team_not_found for an unknown team', async () => {
    const answer = await post(randomUUID(), { name: 'r', trigger: 'onboarding.completed', action: email });
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('team_not_found');
  });
});

describe('GET, PATCH, DELETE', () => {
  it("another team's rule, an unknown one and a deleted one are not found", async () => {
    const team = await createTeam(service);
    const other = await createTeam(service);
    const rule = (await post(team.id, { name: 'r', trigger: 'onboarding.completed', action: email })).body
      .rule;
    for (const answer of [
      await get(other.id, rule.id),
      await patch(other.id, rule.id, { enabled: false }),
      await remove(other.id, rule.id),
      await get(team.id, randomUUID()),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('rule_not_found');
    }
    expect((await remove(team.id, rule.id)).body).toEqual({ success: true });
    expect((await get(team.id, rule.id)).status).toBe(404);
    expect((await remove(team.id, rule.id)).status).toBe(404);
    expect((await patch(team.id, rule.id, { name: 'again' })).status).toBe(404);
  });

  it('PATCH name, action, enabled; an empty PATCH is 400', async () => {
    const team = await createTeam(service);
    const rule = (await post(team.id, { name: 'r', trigger: 'onboarding.overdue', action: email })).body.rule;
    const renamed = await patch(team.id, rule.id, { name: 'Chase late clients' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.rule).toMatchObject({
      name: 'Chase late clients',
      trigger: 'onboarding.overdue',
      enabled: true,
    });
    const off = await patch(team.id, rule.id, { enabled: false, action: webhook });
    expect(off.body.rule).toMatchObject({ enabled: false, action: webhook });
    const on = await patch(team.id, rule.id, { enabled: true });
    expect(on.body.rule.enabled).toBe(true);
    expect((await get(team.id, rule.id)).body.rule).toMatchObject({
      name: 'Chase late clients',
      action: webhook,
      enabled: true,
    });
    const empty = await patch(team.id, rule.id, {});
    expect(empty.status).toBe(400);
    expect((await patch(team.id, rule.id, { trigger: 'payment.succeeded' })).status).toBe(400);
  });

  it('a plan without automations: rules can be switched off and deleted, not added, edited or switched on', async () => {
    const team = await createTeam(service);
    const rule = (await post(team.id, { name: 'r', trigger: 'onboarding.completed', action: email })).body
      .rule;
    const spare = (await post(team.id, { name: 's', trigger: 'onboarding.completed', action: email })).body
      .rule;
    await updateTeam(service, team.id, { plan: 'starter' });

    const added = await post(team.id, { name: 'new', trigger: 'onboarding.completed', action: email });
    expect(added.status).toBe(403);
    expect(added.body.code).toBe('automations_plan_required');
    expect((await patch(team.id, rule.id, { name: 'edited' })).status).toBe(403);
    expect((await patch(team.id, rule.id, { action: webhook })).status).toBe(403);
    expect((await patch(team.id, rule.id, { enabled: false, name: 'edited' })).status).toBe(403);

    const off = await patch(team.id, rule.id, { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body.rule.enabled).toBe(false);
    const on = await patch(team.id, rule.id, { enabled: true });
    expect(on.status).toBe(403);
    expect(on.body.code).toBe('automations_plan_required');
    expect((await remove(team.id, spare.id)).status).toBe(200);
    expect((await get(team.id, rule.id)).body.rule).toMatchObject({ name: 'r', enabled: false });

    await updateTeam(service, team.id, { plan: 'business' });
    expect((await patch(team.id, rule.id, { enabled: true })).body.rule.enabled).toBe(true);
  });

  it('a rule whose member left shows "Former team member"; saving an edit needs a current member', async () => {
    const team = await createTeam(service);
    const member = await addMember(service, team.id);
    const successor = await addMember(service, team.id);
    const rule = (
      await post(team.id, {
        name: 'Tell Ann',
        trigger: 'signature.signed',
        action: { type: 'notify_member', member_id: member.id, message: 'Signed!' },
      })
    ).body.rule;
    await removeMember(service, team.id, member.id);
    expect((await get(team.id, rule.id)).body.rule.action_warning).toBe('Former team member');
    const rename = await patch(team.id, rule.id, { name: 'Tell someone' });
    expect(rename.status).toBe(400);
    expect(rename.body.error).toBe('member_id must be a current team member');
    expect((await patch(team.id, rule.id, { enabled: false })).status).toBe(200);
    const fixed = await patch(team.id, rule.id, {
      action: { type: 'notify_member', member_id: successor.id, message: 'Signed!' },
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body.rule.action_warning).toBeNull();
  });

  it('a rule whose template was deleted shows "Deleted template"', async () => {
    const team = await createTeam(service);
    const template = await createTemplate(service, team.id);
    const rule = (
      await post(team.id, {
        name: 'Next form',
        trigger: 'onboarding.completed',
        action: { type: 'create_onboarding', template_id: template.id },
      })
    ).body.rule;
    await deleteTemplate(service, team.id, template.id);
    expect((await get(team.id, rule.id)).body.rule.action_warning).toBe('Deleted template');
  });

  it('the rule routes need the admin token', async () => {
    const team = await createTeam(service);
    const answer = await fetch(`${service.url}/admin/v1${rules(team.id)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'r', trigger: 'onboarding.completed', action: email }),
    });
    expect(answer.status).toBe(401);
  });
});
