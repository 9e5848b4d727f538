import { describe, expect, it } from 'vitest';
import { may, PERMISSIONS, REAUTHENTICATED_ACTIONS } from './permissions.ts';

describe('workspace permissions', () => {
  it('lets only owners manage members', () => {
    for (const action of ['members.invite', 'members.change_role', 'members.remove'] as const) {
      expect([may('owner', action), may('admin', action), may('member', action)]).toEqual([
        true,
        false,
        false,
      ]);
    }
  });

  it('lets owners and admins list, resend and revoke pending invitations', () => {
    expect([may('owner', 'members.invitations'), may('admin', 'members.invitations')]).toEqual([true, true]);
    expect(may('member', 'members.invitations')).toBe(false);
  });

  it('keeps every Integrations and audit action from members', () => {
    const integrations = Object.keys(PERMISSIONS).filter((action) => /^(api_keys|audit)\./.test(action));
    expect(integrations.length).toBe(5);
    for (const action of integrations as (keyof typeof PERMISSIONS)[]) {
      expect(may('member', action)).toBe(false);
      expect(may('admin', action)).toBe(true);
      expect(may('owner', action)).toBe(true);
    }
  });

  it('keeps hooks, webhook endpoints, automation rules and team changes from members; members read settings', () => {
    const managed = Object.keys(PERMISSIONS).filter((action) =>
      /^(hooks|automation_rules)\.|^team\.update$/.test(action),
    );
    expect(managed.length).toBe(6);
    for (const action of managed as (keyof typeof PERMISSIONS)[]) {
      expect([may('owner', action), may('admin', action), may('member', action)]).toEqual([
        true,
        true,
        false,
      ]);
    }
    expect(may('member', 'team.read')).toBe(true);
  });

  it('asks a re-authentication for key creation, rotation and revocation and for signing secrets only', () => {
    expect([...REAUTHENTICATED_ACTIONS].sort()).toEqual([
      'api_keys.create',
      'api_keys.revoke',
      'api_keys.rotate',
      'hooks.secrets',
    ]);
  });
});
