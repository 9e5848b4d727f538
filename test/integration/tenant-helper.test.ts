import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import {
  addMember,
  apiRequest,
  createGalleryTemplate,
  createTeamWithKey,
  createTemplate,
  removeMember,
  revokeApiKey,
  updateTeam,
} from '../helpers/tenant.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('test/helpers/tenant.ts', () => {
  it('makes a team with a working key, members and templates through the operator API', async () => {
    const { teamId, apiKey, apiKeyId, team } = await createTeamWithKey(service, {
      plan: 'business',
      name: 'Acme',
    });
    expect(team).toMatchObject({ id: teamId, name: 'Acme', plan: 'business', timezone: 'UTC' });
    const me = await apiRequest(service, apiKey, 'GET', '/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      team: { id: teamId, name: 'Acme', tier: 'business' },
      limits: { onboardings_per_month: 'unlimited', api_rate_limit: '1000 requests per minute' },
    });

    const member = await addMember(service, teamId, { role: 'admin' });
    expect(member).toMatchObject({ team_id: teamId, role: 'admin' });
    await removeMember(service, teamId, member.id);

    const template = await createTemplate(service, teamId);
    expect(template.template_steps[0]!.template_fields[0]).toMatchObject({
      type: 'short_text',
      is_required: true,
    });
    const gallery = await createGalleryTemplate(service, { name: 'Gallery' });
    expect(gallery.name).toBe('Gallery');

    const changed = await updateTeam(service, teamId, { plan: 'pro', monthly_onboarding_limit: 7 });
    expect(changed).toMatchObject({ plan: 'pro', monthly_onboarding_limit: 7 });
    const me2 = await apiRequest(service, apiKey, 'GET', '/me');
    expect(me2.body.limits).toEqual({ onboardings_per_month: 7, api_rate_limit: '200 requests per minute' });

    await revokeApiKey(service, teamId, apiKeyId);
    const after = await apiRequest(service, apiKey, 'GET', '/me');
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('api_key_inactive');
  });
});
