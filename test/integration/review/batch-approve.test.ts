import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { createApiKey, createTemplate, type Team } from '../../helpers/tenant.ts';
import { addMember, Browser, signUp } from '../workspace-fixtures.ts';
import { completeForm, formIds, formTemplate, sentOnboarding, type Tenant } from '../portal-fixtures.ts';

/*
 * Approve all / approve step (POST /workspace/v1/onboardings/:id/answers/approve) and the
 * client hub (GET /workspace/v1/clients/:id/hub) over real HTTP and PostgreSQL: two racing
 * approve-alls approve each answer exactly once; another team finds neither the onboarding
 * nor the client; the hub lists the client's onboarding, file and activity.
 */

let service: TestService;
let tenant: Tenant;
let member: Browser;
let colleague: Browser;
let stranger: Browser;
let onboardingId: string;
let clientId: string;

const base = () => `/workspace/v1/onboardings/${onboardingId}`;
const answers = async () =>
  (await member.call('GET', `${base()}/answers`)).body.answers as Array<{ field_id: string; status: string }>;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  const team = await signUp(service, 'batch-owner@example.com', 'a long batch passphrase');
  member = team.owner;
  ({ browser: colleague } = await addMember(service, team.owner, 'batch-member@example.com', 'member'));
  ({ owner: stranger } = await signUp(
    service,
    'batch-stranger@example.com',
    'a long stranger passphrase',
    'Other',
  ));
  const key = await createApiKey(service, team.teamId);
  const template = await createTemplate(service, team.teamId, formTemplate());
  tenant = {
    ...key,
    teamId: team.teamId,
    team: { id: team.teamId } as Team,
    template,
    ids: formIds(template),
  };
  let token: string;
  ({
    onboardingId,
    token,
    client: { id: clientId },
  } = await sentOnboarding(service, tenant));
  await completeForm(service, tenant, token, 'Ada Lovelace');
}, 90_000);
afterAll(async () => {
  await service?.stop();
});

describe('approve all and the client hub', () => {
  it('another team’s onboarding and client are not found; an unknown field approves nothing', async () => {
    const ids = (await answers()).map((answer) => answer.field_id);
    const foreign = await stranger.call('POST', `${base()}/answers/approve`, { field_ids: ids });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('target_unavailable');
    expect((await stranger.call('GET', `/workspace/v1/clients/${clientId}/hub`)).status).toBe(404);
    const unknown = await member.call('POST', `${base()}/answers/approve`, { field_ids: [ids[0], 'nope'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('field_not_found');
    expect((await answers()).every((answer) => answer.status === 'submitted')).toBe(true);
  });

  it('two racing approve-alls approve each answer once', async () => {
    const ids = (await answers()).filter((a) => a.status === 'submitted').map((a) => a.field_id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const [one, two] = await Promise.all([
      member.call('POST', `${base()}/answers/approve`, { field_ids: ids }),
      colleague.call('POST', `${base()}/answers/approve`, { field_ids: ids }),
    ]);
    expect(one.status).toBe(200);
    expect(two.status).toBe(200);
    const approved = [...one.body.approved, ...two.body.approved].sort();
    expect(approved).toEqual([...ids].sort());
    expect([...one.body.skipped, ...two.body.skipped].sort()).toEqual([...ids].sort());
    expect((await answers()).every((answer) => answer.status === 'approved')).toBe(true);
    // One review per answer: no answer was approved twice.
    const reviewed = (await member.call('GET', `${base()}/answers`)).body.answers as Array<{
      reviews: Array<{ decision: string }>;
    }>;
    expect(reviewed.map((answer) => answer.reviews.map((r) => r.decision))).toEqual(
      ids.map(() => ['approved']),
    );
  });

  it('the client hub lists the onboarding, the uploaded file and the activity', async () => {
    const hub = await member.call('GET', `/workspace/v1/clients/${clientId}/hub`);
    expect(hub.status).toBe(200);
    expect(hub.body.onboardings).toEqual([
      expect.objectContaining({ id: onboardingId, status: 'completed', awaiting_review: false }),
    ]);
    expect(hub.body.files).toEqual([
      expect.objectContaining({ onboarding_id: onboardingId, file_name: 'passport.pdf' }),
    ]);
    const kinds = (hub.body.activity as Array<{ kind: string }>).map((entry) => entry.kind);
    expect(kinds).toContain('onboarding.completed');
  });
});
