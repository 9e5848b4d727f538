import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTERS } from '../../services/templates/starters/index.ts';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { adminRequest, apiRequest, createApiKey, updateTeam } from '../helpers/tenant.ts';
import { button, openSection, screens, shown, signUp } from './workspace-page.ts';
import { startWorkspaceService, teamIdOf, type WorkspaceService } from './workspace-service.ts';

/**
 * The starter gallery in Chromium: a brand-new team opens the gallery and finds the six
 * built-in starters (axe-core at 1280x900 and 390x844), uses one with the keyboard and lands
 * in the builder on its copy, and a de-DE client opens an onboarding sent from that copy and
 * reads the form in German.
 */

const OWNER = {
  team: 'Starter Partners',
  name: 'Sam Starter',
  email: 'sam.starter@example.com',
  password: 'a long starters passphrase 5521',
};

const accountant = STARTERS[0]!;

let service: WorkspaceService;
let browser: Browser;

beforeAll(async () => {
  service = await startWorkspaceService();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe('the starter gallery', () => {
  it('lists six starters for a new team, copies one into the builder, and a German client reads it in German', async () => {
    const { page } = await openPage(browser, 'desktop');
    const at = screens(page, 'h7-starters');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);
    await openSection(page, 'Templates');
    await button(page, 'Start from the gallery').click();
    const gallery = page.getByRole('dialog');
    for (const starter of STARTERS)
      await shown(gallery.getByRole('heading', { name: starter.name['en-US'] }));
    await shown(gallery.getByText(accountant.description['en-US']));
    expect(await gallery.textContent()).not.toMatch(/[a-z]+_[a-z]+/);
    await at('gallery');

    // Keyboard: the accountant's "Use this template", then Enter.
    const row = gallery
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: accountant.name['en-US'] }) });
    await row.getByRole('button', { name: 'Use this template' }).focus();
    await page.keyboard.press('Enter');
    await shown(page.getByRole('heading', { level: 1, name: new RegExp(accountant.name['en-US']) }));
    const templateId = page.url().split('/').pop()!;

    // A de-DE client of the team opens an onboarding sent from the copy.
    const teamId = await teamIdOf(page);
    await updateTeam(service, teamId, { plan: 'pro' });
    const { apiKey } = await createApiKey(service, teamId);
    const client = await apiRequest(service, apiKey, 'POST', '/clients', {
      body: { name: 'Greta Gruber', email: 'greta@example.com', locale: 'de-DE' },
    });
    const created = await apiRequest(service, apiKey, 'POST', '/onboardings', {
      body: { template_id: templateId, client_id: client.body.client.id },
    });
    expect(created.status).toBe(201);
    const id = created.body.onboarding.id as string;
    expect((await apiRequest(service, apiKey, 'POST', `/onboardings/${id}/send`, { body: {} })).status).toBe(
      200,
    );
    const link = await adminRequest(service, 'GET', `/onboardings/${id}/link`);
    await page.goto(link.body.url as string);
    await shown(page.getByRole('heading', { name: accountant.steps[0]!.title['de-DE'] }));
    await shown(page.getByLabel(accountant.steps[0]!.fields[0]!.label['de-DE'], { exact: false }));
  }, 60_000);
});
