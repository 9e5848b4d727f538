import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  focusedElement,
  launchBrowser,
  openPage,
  VIEWPORTS,
} from '../helpers/browser.ts';
import { adminRequest, apiRequest, createApiKey, createTemplate, request } from '../helpers/tenant.ts';
import {
  createClient,
  latestToken,
  templateIds,
  twoStepTemplate,
} from '../integration/onboardings-fixtures.ts';
import { button, field, shown, signUp, TIMEOUT } from './workspace-page.ts';
import { inPage, startWorkspaceService, teamIdOf, type WorkspaceService } from './workspace-service.ts';

/**
 * The bell and the choices of notifications, in Chromium: a new team's owner (nobody
 * assigned, so the owner hears) sees the bell count two completed onboardings, opens the
 * list with the keyboard, closes it with Escape (focus back on the bell), follows a
 * notification to its onboarding (it is then read), marks all read; then chooses "In the app
 * only" for completions in Your account. At 1280x900 and 390x844, axe-core on each screen.
 */

const OWNER = {
  team: 'Bellwether Tax',
  name: 'Nora Notified',
  email: 'nora.notified@example.com',
  password: 'a long bell passphrase 5521',
};

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

const SHOTS = '/tmp/shots';
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/h2-${name}.png`, fullPage: false, animations: 'disabled' });

/** Two onboardings of the team sent and completed by the client through the API and the portal. */
async function twoCompleted(teamId: string): Promise<string[]> {
  const key = await createApiKey(service, teamId);
  const tenant = { teamId, team: {} as never, ...key };
  const client = await createClient(service, tenant, 'Grace Hopper');
  const template = await createTemplate(service, teamId, twoStepTemplate());
  const [about] = await templateIds(service, tenant, template.id);
  const ids: string[] = [];
  for (let n = 0; n < 2; n += 1) {
    const api = (method: string, path: string, body?: unknown) =>
      apiRequest(service, key.apiKey, method, `/onboardings${path}`, { body });
    const created = await api('POST', '', { template_id: template.id, client_id: client.id });
    const id = created.body.onboarding.id as string;
    expect((await api('POST', `/${id}/send`)).status).toBe(200);
    const token = await latestToken(service, id);
    const portal = (method: string, path: string, body?: unknown) =>
      request(service, method, `/portal/v1/onboardings/${token}${path}`, { body });
    await portal('GET', '');
    await portal('PUT', `/answers/${about!.fieldIds[0]}`, { value: 'Grace' });
    expect((await portal('POST', `/steps/${about!.stepId}/submit`)).body.onboarding.status).toBe('completed');
    ids.push(id);
  }
  expect((await adminRequest(service, 'POST', '/work/drain')).status).toBeLessThan(300);
  return ids;
}

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications, / });

describe('notifications in the workspace', () => {
  it('the bell counts, opens, closes with Escape, follows, marks read; Your account keeps the choice', async () => {
    const { page } = await openPage(browser, 'desktop');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);
    const ids = await twoCompleted(await teamIdOf(page));
    await page.reload();

    // The count is the button's name; the keyboard opens the list.
    await shown(page.getByRole('button', { name: 'Notifications, 2 unread' }));
    await bell(page).focus();
    await page.keyboard.press('Enter');
    const list = page.getByRole('region', { name: 'Notifications' });
    await shown(list.getByRole('link', { name: /Completed/ }));
    expect(await list.getByRole('link').count()).toBe(2);
    await expectNoAxeViolations(page, 'bell open, desktop');
    await shot(page, 'bell-desktop');
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden', timeout: TIMEOUT });
    expect((await focusedElement(page))?.label).toMatch(/^Notifications, 2 unread/);

    // Following a notification opens its onboarding and reads it.
    await page.keyboard.press('Enter');
    await list.getByRole('link').first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain(`/workspace/onboardings/${ids[1]}`);
    await shown(page.getByRole('button', { name: 'Notifications, 1 unread' }));

    // At a phone's size: open, mark all read, close.
    await page.setViewportSize(VIEWPORTS.mobile.viewport!);
    await bell(page).click();
    await shown(list.getByRole('button', { name: 'Mark all read' }));
    await expectNoAxeViolations(page, 'bell open, mobile');
    await shot(page, 'bell-mobile');
    await list.getByRole('button', { name: 'Mark all read' }).click();
    await shown(page.getByRole('button', { name: 'Notifications, none unread' }));
    await page.keyboard.press('Escape');

    // Your account: completions in the app only.
    await page.goto(`${service.publicUrl}/workspace/account`);
    const choice = field(page, 'A client completes an onboarding');
    await shown(choice);
    await choice.focus();
    await choice.selectOption('in_app');
    await button(page, 'Save notification choices').click();
    await shown(page.getByText('Your notification choices are saved.'));
    await expectNoAxeViolations(page, 'account, mobile');
    await shot(page, 'account-mobile');
    await page.setViewportSize(VIEWPORTS.desktop.viewport!);
    await expectNoAxeViolations(page, 'account, desktop');
    await page.getByRole('heading', { name: 'Notifications' }).scrollIntoViewIfNeeded();
    await shot(page, 'account-desktop');
    const saved = await inPage(page, 'GET', '/workspace/v1/me/notification-preferences');
    expect((saved.body as { preferences: Record<string, string> }).preferences.completed).toBe('in_app');
  });
});
