import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, openPage, VIEWPORTS } from '../helpers/browser.ts';
import { button, navigation, openMenu, shown, signUp, TIMEOUT } from './workspace-page.ts';
import { startWorkspaceService, type WorkspaceService } from './workspace-service.ts';

/*
 * A member who chooses Deutsch reads the whole workspace in German: a new team signs up in
 * US English, the owner chooses Deutsch in Your account with the keyboard and saves, the
 * page reloads with lang="de-DE", and every screen of the navigation shows its German
 * heading and none of the US English phrases that German words differently, at 1280x900
 * and 390x844, with axe-core finding nothing.
 */

const OWNER = {
  team: 'Rhein Steuerberatung',
  name: 'Greta German',
  email: 'greta.german@example.com',
  password: 'a long german passphrase 5521',
};

const MESSAGES = 'services/web/workspace/messages';

/** One locale's catalog: every feature's file merged. */
function catalog(locale: string, folder = join(MESSAGES, locale)): Record<string, string> {
  return Object.assign(
    {},
    ...readdirSync(folder).map((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return catalog(locale, path);
      return name.endsWith('.json') ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>) : {};
    }),
  ) as Record<string, string>;
}

const english = catalog('en-US');
const german = catalog('de-DE');
/** US English phrases (two words or more, no ICU argument) that German words differently. */
const englishOnly = Object.entries(english)
  .filter(([key, text]) => !/[{}]/.test(text) && /\S+\s+\S+/.test(text) && german[key] !== text)
  .map(([, text]) => text);

/** Screens of the navigation, by their title key (their heading) and nav key (their link). */
const SCREENS = [
  'home',
  'onboardings',
  'clients',
  'templates',
  'members',
  'integrations',
  'webhooks',
  'automations',
  'activity',
  'settings',
  'account',
];

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

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1, exact: true });

/** The English phrases a screen still shows. */
async function englishOn(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return englishOnly.filter((phrase) => text.includes(phrase));
}

describe('the workspace in German', () => {
  it('speaks German on every screen once a member chooses Deutsch', async () => {
    const { page } = await openPage(browser, 'desktop');
    await page.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(page, OWNER);
    await openMenu(page);
    await navigation(page).getByRole('link', { name: 'Your account' }).click();
    await shown(heading(page, 'Your account'));

    // Chooses Deutsch with the keyboard and saves: the page reloads in German.
    const language = page.getByLabel(english['account.language.label']!, { exact: true });
    await language.focus();
    await page.keyboard.type('Deutsch');
    await expect(language.inputValue()).resolves.toBe('de-DE');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('html').getAttribute('lang'), { timeout: TIMEOUT }).toBe('de-DE');
    await shown(heading(page, german['title.account']!));

    for (const screen of SCREENS) {
      await openMenu(page);
      await navigation(page)
        .getByRole('link', { name: german[`nav.${screen}`] ?? german[`title.${screen}`], exact: true })
        .first()
        .click();
      await shown(heading(page, german[`title.${screen}`]!));
      await page.waitForLoadState('networkidle');
      // Activity dates its events: a German date (28.11.2026), not a US one (11/28/2026).
      if (screen === 'activity') await shown(page.getByText(/\b\d{2}\.\d{2}\.\d{4}\b/));
      for (const viewport of ['desktop', 'mobile'] as const) {
        await page.setViewportSize(VIEWPORTS[viewport].viewport!);
        expect(await englishOn(page), `${screen} (${viewport})`).toEqual([]);
        await page.screenshot({ path: `/tmp/shots/h9-${screen}-${viewport}.png` });
        await expectNoAxeViolations(page, `${screen} (${viewport})`);
      }
      await page.setViewportSize(VIEWPORTS.desktop.viewport!);
    }
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de-DE');
    await expect(button(page, german['shell.signOut']!).count()).resolves.toBeGreaterThan(0);
  }, 60_000);
});
