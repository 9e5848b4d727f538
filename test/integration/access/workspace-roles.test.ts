import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { addMember, signUp } from '../workspace-fixtures.ts';

/**
 * Roles over HTTP: only owners change roles, the last owner can neither leave, be demoted
 * nor be removed (409 last_owner), and any member can leave.
 */

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'on' });
});

afterAll(async () => {
  await service?.stop();
});

const password = 'correct horse battery staple';

const roleOf = async (memberId: string) =>
  (
    await service.context.pool.query<{ role: string }>('select role from team_members where id = $1', [
      memberId,
    ])
  ).rows[0]?.role;

describe('workspace roles', () => {
  it('lets owners change roles, keeps the last owner and lets members leave', async () => {
    const { owner, memberId: ownerId } = await signUp(service, 'roles-owner@example.com', password, 'Roles');
    const admin = await addMember(service, owner, 'roles-admin@example.com', 'admin');
    const member = await addMember(service, owner, 'roles-member@example.com', 'member');

    // An admin may not change roles (owners only), not even their own.
    for (const target of [member.memberId, admin.memberId]) {
      const refused = await admin.browser.call('PATCH', `/workspace/v1/members/${target}`, { role: 'owner' });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('forbidden');
    }
    expect(await roleOf(admin.memberId)).toBe('admin');
    // Nor remove another member.
    const adminRemoves = await admin.browser.call('DELETE', `/workspace/v1/members/${member.memberId}`);
    expect(adminRemoves.status).toBe(403);

    // The last owner: no leaving, no demotion, no removal.
    const leave = await owner.call('DELETE', `/workspace/v1/members/${ownerId}`);
    expect(leave.status).toBe(409);
    expect(leave.body.code).toBe('last_owner');
    const demote = await owner.call('PATCH', `/workspace/v1/members/${ownerId}`, { role: 'member' });
    expect(demote.status).toBe(409);
    expect(demote.body.code).toBe('last_owner');
    expect(await roleOf(ownerId)).toBe('owner');

    // An owner makes the admin an owner; then the first owner may step down.
    const promoted = await owner.call('PATCH', `/workspace/v1/members/${admin.memberId}`, { role: 'owner' });
    expect(promoted.status).toBe(200);
    expect(promoted.body.member).toEqual({ id: admin.memberId, role: 'owner' });
    expect(await roleOf(admin.memberId)).toBe('owner');
    const me = await admin.browser.call('GET', '/workspace/v1/me');
    expect(me.body.role).toBe('owner');
    const stepDown = await owner.call('PATCH', `/workspace/v1/members/${ownerId}`, { role: 'admin' });
    expect(stepDown.status).toBe(200);

    // Now the promoted owner is the last one, and the only one who could remove them: no leaving.
    const lastLeaves = await admin.browser.call('DELETE', `/workspace/v1/members/${admin.memberId}`);
    expect(lastLeaves.status).toBe(409);
    expect(lastLeaves.body.code).toBe('last_owner');
    // The former owner, now admin, can no longer change roles.
    const formerOwner = await owner.call('PATCH', `/workspace/v1/members/${member.memberId}`, {
      role: 'admin',
    });
    expect(formerOwner.status).toBe(403);

    // A member leaves; their session ends.
    const left = await member.browser.call('DELETE', `/workspace/v1/members/${member.memberId}`);
    expect(left.status).toBe(200);
    expect((await member.browser.call('GET', '/workspace/v1/me')).status).toBe(401);
    const members = await admin.browser.call('GET', '/workspace/v1/members');
    expect(members.body.data.map((m: { email: string }) => m.email).sort()).toEqual([
      'roles-admin@example.com',
      'roles-owner@example.com',
    ]);
  }, 60_000);
});
