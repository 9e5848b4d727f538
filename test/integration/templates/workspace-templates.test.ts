import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { createGalleryTemplate, createTeam, createTemplate, deleteTemplate } from '../../helpers/tenant.ts';
import { addMember, Browser, signUp } from '../workspace-fixtures.ts';

/*
 * The workspace's template choices over real HTTP and PostgreSQL: every member reads the
 * team's own live templates by name; gallery, deleted and other teams' templates are not
 * listed, and nobody signed out reads any.
 */

let service: TestService;
let owner: Browser;
let member: Browser;
let teamId: string;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  ({ owner, teamId } = await signUp(service, 'templates-owner@example.com', 'a long templates passphrase'));
  ({ browser: member } = await addMember(service, owner, 'templates-member@example.com', 'member'));
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

describe('workspace templates to choose from', () => {
  it("lists the team's own live templates by name to every role, nothing else", async () => {
    const zeta = await createTemplate(service, teamId, { name: 'Zeta intake' });
    const alpha = await createTemplate(service, teamId, { name: 'alpha tax return' });
    const gone = await createTemplate(service, teamId, { name: 'Beta gone' });
    await deleteTemplate(service, teamId, gone.id);
    await createGalleryTemplate(service, { name: 'Gallery bookkeeping' });
    const otherTeam = await createTeam(service);
    await createTemplate(service, otherTeam.id, { name: 'Other team intake' });

    for (const who of [owner, member]) {
      const answer = await who.call('GET', '/workspace/v1/templates');
      expect(answer.status).toBe(200);
      expect(
        answer.body.data.map((template: { id: string; name: string }) => [template.id, template.name]),
      ).toEqual([
        [alpha.id, 'alpha tax return'],
        [zeta.id, 'Zeta intake'],
      ]);
    }
  });

  it('refuses a request without a session', async () => {
    const answer = await new Browser(service).call('GET', '/workspace/v1/templates');
    expect(answer.status).toBe(401);
  });
});
