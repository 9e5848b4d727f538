import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot, type OpenedPage } from '../helpers/browser.ts';
import { enterPin, heading, texts, waitForSaved } from './form-page.ts';
import {
  createFormTenant,
  expectLogFreeOf,
  sendForm,
  serverErrorsInLog,
  simpleTemplate,
  startFormService,
  type FormService,
  type FormTenant,
} from './form-service.ts';

/**
 * Two browsers (two contexts: two devices, or two tabs without shared storage) autosave
 * the same onboarding at once for 20 seconds, in the same field and in different ones:
 * neither shows an error, both end saved, and the service logs no 5xx.
 */

const PIN = '915370';
const SECONDS = 20;
const text = texts('en-US');

let service: FormService;
let browser: Browser;
let tenant: FormTenant;
const secrets = { tokens: [] as string[], pins: [PIN] };

beforeAll(async () => {
  service = await startFormService();
  browser = await launchBrowser();
  tenant = await createFormTenant(service, {}, simpleTemplate());
});

afterAll(async () => {
  try {
    if (service) expectLogFreeOf(service, secrets);
  } finally {
    await browser?.close();
    await service?.stop();
  }
});

/** Texts the page shows when something went wrong. */
const errorTexts = [
  text.t('errors.generic'),
  text.t('errors.network'),
  text.pattern('errors.busy'),
  text.t('dead.error.title'),
];

/** Save states that wait for a retry: passing ones are allowed while both save, not at the end. */
const retryTexts = [text.t('save.offline'), text.t('save.retrying')];

async function visibleErrors(page: Page, texts: (string | RegExp)[] = errorTexts): Promise<string[]> {
  const found: string[] = [];
  for (const error of texts) {
    if (await page.getByText(error).first().isVisible()) found.push(String(error));
  }
  return found;
}

/** Types into `labels` in turn until `until`, checking for error texts after each change. */
async function typeUntil(page: Page, who: string, labels: string[], until: number, errors: string[]) {
  for (let round = 0; Date.now() < until; round++) {
    const label = labels[round % labels.length]!;
    const input = page.getByLabel(label, { exact: true });
    await input.fill(label === 'Email address' ? `${who}${round}@example.com` : `${who} round ${round}`);
    await page.waitForTimeout(150 + Math.floor(Math.random() * 350));
    errors.push(...(await visibleErrors(page)).map((error) => `${who}, round ${round}: ${error}`));
  }
}

it('two contexts autosave the same onboarding for 20 seconds: no error shown, no 5xx logged', async () => {
  const form = await sendForm(service, tenant, { pin: PIN });
  secrets.tokens.push(form.token);
  const opened: OpenedPage[] = [];
  try {
    for (let n = 0; n < 2; n++) {
      const one = await openPage(browser, n === 0 ? 'mobile' : 'desktop');
      opened.push(one);
      await one.page.goto(form.link);
      await enterPin(one.page, text, PIN);
      await heading(one.page, 'Contact').waitFor();
    }
    const [a, b] = opened as [OpenedPage, OpenedPage];
    const errors: string[] = [];
    const until = Date.now() + SECONDS * 1000;
    await Promise.all([
      typeUntil(a.page, 'Ada', ['Full name', 'Email address'], until, errors),
      typeUntil(b.page, 'Bo', ['Full name', 'Notes'], until, errors),
    ]);
    for (const { page } of opened) await waitForSaved(page, text);
    for (const [index, { page }] of opened.entries()) {
      await screenshot(page, 'autosave', 'after', index === 0 ? 'mobile' : 'desktop');
      const shown = await visibleErrors(page, [...errorTexts, ...retryTexts]);
      errors.push(...shown.map((error) => `at the end: ${error}`));
    }
    expect(errors).toEqual([]);
    for (const { watch } of opened) watch.assertClean();
  } finally {
    for (const { context } of opened) await context.close();
  }
  const saves = service.logLines.filter((line) => /"method":"PUT"/.test(line) && line.includes('/answers/'));
  expect(saves.length).toBeGreaterThan(20);
  expect(serverErrorsInLog(service)).toEqual([]);
}, 90_000);
