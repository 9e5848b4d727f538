import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { updateTeam } from '../../helpers/tenant.ts';
import { addMember, signUp, type Browser } from '../workspace-fixtures.ts';

/*
 * Team settings in the workspace over real HTTP and PostgreSQL: every member reads them,
 * owners and admins change them (not the plan, sending or limits), with the member as actor.
 */

let service: TestService;
let owner: Browser;
let admin: Browser;
let member: Browser;
let teamId: string;
let adminId: string;
const password = 'correct horse battery staple';
const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  ({ owner, teamId } = await signUp(service, 'team-owner@example.com', password, 'Settings Co'));
  ({ browser: admin, memberId: adminId } = await addMember(
    service,
    owner,
    'team-admin@example.com',
    'admin',
  ));
  ({ browser: member } = await addMember(service, owner, 'team-member@example.com', 'member'));
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

describe('workspace team settings', () => {
  it('every member reads the settings; a member may not change them', async () => {
    const read = await member.call('GET', '/workspace/v1/team');
    expect(read.status).toBe(200);
    expect(read.body.team).toMatchObject({
      id: teamId,
      name: 'Settings Co',
      plan: 'pro_trial',
      sending_paused: false,
      has_logo: false,
      logo_url: null,
      usage: { onboardings_sent: 0, limit_near: false },
    });
    const change = await member.call('PATCH', '/workspace/v1/team', { name: 'Mine now' });
    expect([change.status, change.body.code]).toEqual([403, 'forbidden']);
    expect((await member.call('GET', '/workspace/v1/team')).body.team.name).toBe('Settings Co');
  });

  it('owners and admins change name, sender, zone, language, date format and branding; the member is the actor', async () => {
    const changed = await admin.call('PATCH', '/workspace/v1/team', {
      name: 'Settings Ltd',
      email_sender_name: 'Settings Team',
      timezone: 'Europe/Berlin',
      locale: 'de-DE',
      date_format: 'DD.MM.YYYY',
      accent_color: '#1D4ED8',
      logo: TINY_PNG,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.team).toMatchObject({
      name: 'Settings Ltd',
      email_sender_name: 'Settings Team',
      timezone: 'Europe/Berlin',
      locale: 'de-DE',
      date_format: 'DD.MM.YYYY',
      accent_color: '#1d4ed8',
      has_logo: true,
      logo_url: expect.stringMatching(new RegExp(`^/brand/${teamId}/logo\\?v=`)),
    });
    const { rows } = await service.context.pool.query<{ actor: string }>(
      `select metadata->>'actor_member_id' as actor from events
       where stream_id = $1 and type like '%updated' order by position desc limit 1`,
      [`team-${teamId}`],
    );
    expect(rows[0]?.actor).toBe(adminId);
  });

  it('refuses an unknown time zone, language or date format, a light accent color, and operator-only settings', async () => {
    for (const body of [
      { timezone: 'Mars/Olympus' },
      { locale: 'xx-XX' },
      { date_format: 'YYYY/MM/DD' },
      { accent_color: '#ffff00' },
      { plan: 'business' },
      { sending_paused: true },
      { monthly_onboarding_limit: 1000 },
      {},
    ]) {
      const answer = await owner.call('PATCH', '/workspace/v1/team', body);
      expect([JSON.stringify(body), answer.status, answer.body.code]).toEqual([
        JSON.stringify(body),
        400,
        'invalid_body',
      ]);
    }
    expect((await owner.call('GET', '/workspace/v1/team')).body.team).toMatchObject({
      plan: 'pro_trial',
      sending_paused: false,
      timezone: 'Europe/Berlin',
    });
  });

  it('shows the month usage and the limit, limit_near from 80 %', async () => {
    await updateTeam(service, teamId, { monthly_onboarding_limit: 5 });
    const month = (await owner.call('GET', '/workspace/v1/team')).body.team.usage.month;
    const count = async (n: number) => {
      for (let i = 0; i < n; i += 1) {
        await service.context.pool.query(
          'insert into onboarding_send_usage (onboarding_id, team_id, usage_month, counted_at) values ($1, $2, $3, now())',
          [randomUUID(), teamId, month],
        );
      }
      return (await member.call('GET', '/workspace/v1/team')).body.team.usage;
    };
    expect(await count(3)).toEqual({ month, onboardings_sent: 3, monthly_limit: 5, limit_near: false });
    expect(await count(1)).toEqual({ month, onboardings_sent: 4, monthly_limit: 5, limit_near: true });
  });

  it('a PATCH without the CSRF token is refused and changes nothing', async () => {
    const answer = await owner.call(
      'PATCH',
      '/workspace/v1/team',
      { name: 'Hijacked' },
      { 'x-csrf-token': '' },
    );
    expect([answer.status, answer.body.code]).toEqual([403, 'csrf_token_invalid']);
    expect((await owner.call('GET', '/workspace/v1/team')).body.team.name).toBe('Settings Ltd');
  });
});
