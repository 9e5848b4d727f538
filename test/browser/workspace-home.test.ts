import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  focusedElement,
  launchBrowser,
  openPage,
  VIEWPORTS,
} from '../helpers/browser.ts';
import { adminRequest, createApiKey, createTemplate, type Team } from '../helpers/tenant.ts';
import { completeForm, formIds, formTemplate, sentOnboarding } from '../integration/portal-fixtures.ts';
import { button, navigation, shown, signIn, signUp, TIMEOUT } from './workspace-page.ts';
import { inPage, startWorkspaceService, type WorkspaceService } from './workspace-service.ts';

/*
 * Home and the navigation in Chromium: a new team signs up and lands on Home, which says
 * what to do first; a client completes an onboarding (through the portal API) and Home lists
 * it under "Awaiting review" with its number of answers, the link opening it; a signed-out
 * visit to that onboarding's address goes to sign-in and back to it. The owner hears of the
 * completion in the bell and by one digest email, and the onboardings list's "Waiting for
 * review" filter finds it. The navigation groups
 * work apart from settings: a sidebar at 1280x900, a menu opened and closed by keyboard at
 * 390x844 (focus back on its button). axe-core finds nothing on Home and the open menu.
 */

const OWNER = {
  team: 'Harbour Accounting',
  name: 'Hana Home',
  email: 'hana.home@example.com',
  password: 'a long home passphrase 8841',
};

let service: WorkspaceService;
let browser: Browser;

beforeAll(async () => {
  service = await startWorkspaceService();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `/tmp/shots/h1-${name}.png`, fullPage: true });
const at = async (page: Page, viewport: 'desktop' | 'mobile', name: string) => {
  await page.setViewportSize(VIEWPORTS[viewport].viewport!);
  await shot(page, `${name}-${viewport}`);
  await expectNoAxeViolations(page, `${name} (${viewport})`);
};
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 1 });

describe('Home and the navigation', () => {
  it('lands a new team on Home, lists a completed onboarding for review, returns there after sign-in', async () => {
    const { page } = await openPage(browser, 'desktop');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);
    // Signed up, signed in: Home, with what to do first.
    await shown(heading(page, 'Home'));
    expect(new URL(page.url()).pathname).toBe('/workspace');
    await shown(page.getByRole('link', { name: 'Create a template' }));
    await shown(page.getByRole('link', { name: 'Add a client' }));
    const nav = navigation(page).filter({ has: page.getByRole('link', { name: 'Home' }) });
    await expect(nav.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).resolves.toBe('page');
    await expect(nav.getByRole('list', { name: 'Work' }).getByRole('link').allInnerTexts()).resolves.toEqual([
      'Home',
      'Onboardings',
      'Clients',
      'Templates',
    ]);
    await expect(
      nav.getByRole('list', { name: 'Team settings' }).getByRole('link', { name: 'Members' }).isVisible(),
    ).resolves.toBe(true);
    await expect(button(page, 'Menu').isVisible()).resolves.toBe(false);
    await at(page, 'desktop', 'home-new-team');

    // A client completes an onboarding: Home lists it under "Awaiting review" with its answers.
    const me = (await inPage(page, 'GET', '/workspace/v1/me')).body as { team: { id: string } };
    const key = await createApiKey(service, me.team.id);
    const template = await createTemplate(service, me.team.id, formTemplate());
    const tenant = {
      ...key,
      teamId: me.team.id,
      team: { id: me.team.id } as Team,
      template,
      ids: formIds(template),
    };
    const { onboardingId, token } = await sentOnboarding(service, tenant, {
      client: { name: 'Ada Lovelace' },
    });
    await completeForm(service, tenant, token, 'Ada Lovelace');
    await page.reload();
    const review = page.getByRole('region', { name: /Awaiting review/ });
    await shown(review.getByRole('link', { name: 'Ada Lovelace' }));
    await expect(review.getByRole('heading').innerText()).resolves.toMatch(/Awaiting review\s*1/);
    await expect(review.innerText()).resolves.toMatch(/\d+ answers to review/);
    await at(page, 'desktop', 'home-awaiting');
    await at(page, 'mobile', 'home-awaiting');

    // The onboarding is nobody's, so the owner (every owner and admin) hears that the client
    // signed and completed it: in the bell at once, and by one email about the one onboarding
    // once the digest's quiet window has passed.
    expect((await adminRequest(service, 'POST', '/work/drain')).status).toBeLessThan(300);
    await page.reload();
    await shown(heading(page, 'Home'));
    await shown(page.getByRole('button', { name: 'Notifications, 2 unread' }));
    expect((await adminRequest(service, 'POST', '/clock/advance', { seconds: 180 })).status).toBe(200);
    expect((await adminRequest(service, 'POST', '/work/drain')).status).toBeLessThan(300);
    const { rows: digests } = await service.context.pool.query<{ subject: string }>(
      `select subject from mail_outbox where "to" = $1 and kind = 'notification'`,
      [OWNER.email],
    );
    expect(digests.map((mail) => mail.subject)).toEqual([
      `[${OWNER.team}] 1 onboarding needs your attention`,
    ]);

    // The onboardings list's "Waiting for review" filter finds it (the filter lives in the address).
    await page.setViewportSize(VIEWPORTS.desktop.viewport!);
    await page.goto(`${service.publicUrl}/workspace/onboardings?review=awaiting_review`);
    await shown(page.getByRole('link', { name: /Ada Lovelace/ }));
    await page.goBack();
    await page.setViewportSize(VIEWPORTS.mobile.viewport!);
    await shown(review.getByRole('link', { name: 'Ada Lovelace' }));

    // On a phone the navigation is a menu: Enter opens it, Escape closes it, focus returns.
    const menu = button(page, 'Menu');
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
    await shown(navigation(page).getByRole('link', { name: 'Onboardings' }));
    await at(page, 'mobile', 'menu-open');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    const focused = await focusedElement(page);
    expect(focused).toMatchObject({ tag: 'button', label: 'Menu', visible: true });
    await expect(navigation(page).getByRole('link', { name: 'Onboardings' }).isVisible()).resolves.toBe(
      false,
    );

    // The link opens the onboarding.
    await review.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.waitForURL(`**/workspace/onboardings/${onboardingId}`, { timeout: TIMEOUT });

    // Signed out, the onboarding's address leads to sign-in and back to it.
    await page.setViewportSize(VIEWPORTS.desktop.viewport!);
    await button(page, 'Sign out').click();
    await shown(button(page, 'Sign in'));
    await page.goto(`${service.publicUrl}/workspace/onboardings/${onboardingId}`);
    await page.waitForURL(/\/workspace\/sign-in\?next=/, { timeout: TIMEOUT });
    await signIn(page, OWNER.email, OWNER.password);
    await page.waitForURL(`**/workspace/onboardings/${onboardingId}`, { timeout: TIMEOUT });
    await shot(page, 'returned-desktop');
  }, 40_000);
});
