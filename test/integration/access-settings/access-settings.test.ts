import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { Browser, lastEmailTo, linkToken, signUp } from '../workspace-fixtures.ts';

/*
 * Access and settings you can read, over real HTTP and PostgreSQL: API keys told apart after
 * a rotation (prefix, creator, last use), Activity naming actor and object, the invitation
 * page naming team and inviter, pending invitations resent and revoked.
 */

let service: TestService;
let owner: Browser;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  ({ owner } = await signUp(service, 'ada@example.com', 'correct horse battery staple', 'Analytical'));
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

const idem = (key: string) => ({ 'idempotency-key': key });

describe('access and settings', () => {
  it('after a rotation the two keys show different prefixes, their creator and last use', async () => {
    const reauth = await owner.call('POST', '/workspace/v1/sessions/current/reauth', {
      password: 'correct horse battery staple',
    });
    expect(reauth.status).toBe(200);
    const created = await owner.call(
      'POST',
      '/workspace/v1/api-keys',
      { name: 'Zapier', scopes: ['clients:read'] },
      idem('k1'),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const first = created.body.api_key;
    expect(first.key_prefix).toBe(created.body.secret.slice(0, 12));
    const used = await fetch(`${service.url}/api/v1/clients`, {
      headers: { authorization: `Bearer ${created.body.secret}` },
    });
    expect(used.status).toBe(200);
    const rotated = await owner.call('POST', `/workspace/v1/api-keys/${first.id}/rotate`, {}, idem('k2'));
    expect([200, 201]).toContain(rotated.status);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the use is written after the answer
    const listed = await owner.call('GET', '/workspace/v1/api-keys');
    const keys = listed.body.data as Array<Record<string, unknown>>;
    expect(keys).toHaveLength(2);
    expect(new Set(keys.map((key) => key.key_prefix)).size).toBe(2);
    expect(keys.every((key) => key.created_by === 'Olive Owner')).toBe(true);
    const old = keys.find((key) => key.id === first.id)!;
    const fresh = keys.find((key) => key.id !== first.id)!;
    expect(old.last_used_at).not.toBeNull();
    expect(fresh.last_used_at).toBeNull();
    expect(JSON.stringify(keys)).not.toContain(created.body.secret);

    const revoked = await owner.call('DELETE', `/workspace/v1/api-keys/${first.id}`);
    expect(revoked.status).toBe(200);
    const audit = await owner.call('GET', '/workspace/v1/audit?limit=10');
    const entry = audit.body.data.find((row: { type: string }) => row.type === 'api_key_revoked');
    expect(entry).toMatchObject({ actor_name: 'Olive Owner', object_name: `Zapier ${first.key_prefix}…` });
  });

  it('a settings change is named with its actor', async () => {
    const changed = await owner.call('PATCH', '/workspace/v1/team', { accent_color: '#1a5fb4' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const audit = await owner.call('GET', '/workspace/v1/audit?limit=5');
    expect(audit.body.data[0]).toMatchObject({
      type: 'team_settings_changed',
      actor_name: 'Olive Owner',
      data: { settings: ['accent_color'] },
    });
    const light = await owner.call('PATCH', '/workspace/v1/team', { accent_color: '#ffd700' });
    expect(light.status).toBe(400);
    expect(light.body.message).toMatch(/^accent_color #ffd700 has a contrast ratio of 1\.40:1/);
  });

  it('the invitation page names the team and the inviter; a pending invitation is listed, resent, revoked', async () => {
    const invited = await owner.call('POST', '/workspace/v1/invitations', {
      email: 'grace@example.com',
      name: 'Grace',
      role: 'admin',
    });
    expect(invited.status).toBe(201);
    const token = linkToken(await lastEmailTo(service, 'grace@example.com'));
    const page = await new Browser(service).call('GET', `/workspace/v1/invitations/${token}/details`);
    expect(page.status).toBe(200);
    expect(page.body.invitation).toMatchObject({
      team_name: 'Analytical',
      invited_by: 'Olive Owner',
      email: 'grace@example.com',
      role: 'admin',
    });
    const listed = await owner.call('GET', '/workspace/v1/invitations');
    const invitation = listed.body.data.find((row: { email: string }) => row.email === 'grace@example.com');
    expect(invitation).toMatchObject({ invited_by: { name: 'Olive Owner' }, sent_count: 1 });
    const resent = await owner.call('POST', `/workspace/v1/invitations/${invitation.id}/resend`);
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    const stale = await new Browser(service).call('GET', `/workspace/v1/invitations/${token}/details`);
    expect([stale.status, stale.body.code]).toEqual([400, 'invitation_invalid']);
    const revoked = await owner.call('DELETE', `/workspace/v1/invitations/${invitation.id}`);
    expect(revoked.status).toBe(200);
    const after = await owner.call('GET', '/workspace/v1/invitations');
    expect(after.body.data.map((row: { email: string }) => row.email)).not.toContain('grace@example.com');
    const audit = await owner.call('GET', '/workspace/v1/audit?limit=3');
    expect(audit.body.data[0]).toMatchObject({
      type: 'invitation_revoked',
      actor_name: 'Olive Owner',
      object_name: 'grace@example.com',
    });
  });
});
