import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  type ViewportName,
} from '../helpers/browser.ts';
import { drain } from '../integration/portal-fixtures.ts';
import {
  FILES,
  TEAM_NAME,
  button,
  enterPin,
  expectChoices,
  expectStep,
  expectStepOne,
  field,
  fillChoices,
  fillStepOne,
  heading,
  inDateFormat,
  nextTo,
  removeFile,
  sign,
  submitForm,
  texts,
  toReview,
  uploadFiles,
  waitForSaved,
  walkForm,
} from './form-page.ts';
import {
  LABELS,
  STEP_TITLES,
  createFormTenant,
  eventTypes,
  expectLogFreeOf,
  sendForm,
  startFormService,
  type FormService,
  type FormTenant,
} from './form-service.ts';

/**
 * A new client's journey through the form in Chromium (en-US): the link from the invite
 * email, the PIN, every field type, two files, a signature, a reload in the middle, the
 * review and the submit; the events feed tells the story in order. Every screen is
 * checked with axe-core and photographed at the phone size, then again at the laptop size.
 */

const PIN = '739152';
const DATE_FORMAT = 'MM/DD/YYYY';
const DUE_DATE = '2031-03-14';
const text = texts('en-US');

let service: FormService;
let browser: Browser;
let tenant: FormTenant;
const secrets = { tokens: [] as string[], pins: [PIN, '000000'] };

beforeAll(async () => {
  service = await startFormService();
  browser = await launchBrowser();
  tenant = await createFormTenant(service, { locale: 'en-US', date_format: DATE_FORMAT });
});

afterAll(async () => {
  try {
    if (service) expectLogFreeOf(service, secrets);
  } finally {
    await browser?.close();
    await service?.stop();
  }
});

async function sent() {
  const form = await sendForm(service, tenant, {
    pin: PIN,
    due_date: DUE_DATE,
    client: { locale: 'en-US', date_format: DATE_FORMAT, timezone: 'America/New_York' },
  });
  secrets.tokens.push(form.token);
  return form;
}

const screens = (page: import('playwright-core').Page, viewport: ViewportName) => async (screen: string) => {
  await screenshot(page, 'journey', screen, viewport);
  await expectNoAxeViolations(page, `${screen} (${viewport})`);
};

describe('the link of the invite email', () => {
  it('HEAD and GET without script answer the page and record nothing', async () => {
    const form = await sent();
    expect(form.link).toBe(`${service.publicUrl}/f/${form.token}`);
    const head = await fetch(form.link, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/html/);
    const get = await fetch(form.link);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toMatch(/^text\/html/);
    expect(get.headers.get('referrer-policy')).toBe('no-referrer');
    expect(get.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(get.headers.get('set-cookie')).toBeNull();
    const page = await get.text();
    expect(page).toMatch(/<!doctype html>/i);
    expect(page).not.toContain(form.token);
    await drain(service);
    const types = await eventTypes(service, tenant, form.onboardingId);
    expect(types).toContain('onboarding.sent');
    expect(types).not.toContain('onboarding.started');
  });
});

describe('a new client (en-US, phone)', () => {
  it('enters the PIN, fills every field type, uploads, signs, reloads, submits; the feed shows it in order', async () => {
    const form = await sent();
    const { context, page, watch } = await openPage(browser, 'mobile');
    const atScreen = screens(page, 'mobile');
    try {
      await page.goto(form.link);

      // PIN: a wrong one answers in words, the right one opens the form.
      await heading(page, text.t('pin.title')).waitFor();
      await expect.poll(() => page.getByText(TEAM_NAME).count()).toBeGreaterThan(0);
      await atScreen('pin');
      await enterPin(page, text, '000000');
      await page.getByText(text.t('pin.wrong', { team: TEAM_NAME })).waitFor();
      await atScreen('pin-wrong');
      await page.getByLabel(text.t('pin.label')).fill(PIN);
      await button(page, text.t('pin.submit')).click();

      // Step 1: the due date in the client's format, every text type.
      await expectStep(page, STEP_TITLES[0]);
      await page.getByText(text.t('due.on', { date: inDateFormat(DUE_DATE, DATE_FORMAT) })).waitFor();
      await atScreen('step-1');
      await fillStepOne(page, DATE_FORMAT);
      await waitForSaved(page, text);
      await atScreen('step-1-filled');
      await nextTo(page, text, STEP_TITLES[1]);

      // Step 2: choices, then a reload: the link session keeps the form open, the form resumes
      // at step 2 (step 1 is done) and every answer is back.
      await fillChoices(page);
      await waitForSaved(page, text);
      await page.reload();
      await expect.poll(() => heading(page, text.t('pin.title')).count()).toBe(0);
      await expectStep(page, STEP_TITLES[1]);
      await button(page, text.t('nav.back')).click();
      await expectStep(page, STEP_TITLES[0]);
      await expectStepOne(page, DATE_FORMAT);
      await nextTo(page, text, STEP_TITLES[1]);
      await expectChoices(page);
      await atScreen('step-2');

      // The signature: typed name and a drawing.
      await sign(page, text, { name: 'Avery Quinn', email: 'avery.quinn@example.com' });
      await atScreen('step-2-signed');

      // Steps 1 and 2 done: coming back, the client lands on step 3, the optional one after them.
      await page.reload();
      await expectStep(page, STEP_TITLES[2]);
      // The optional step after the required ones: two files, one removed and added again.
      await atScreen('step-3');
      await uploadFiles(page, text, [FILES.png, FILES.pdf]);
      await removeFile(page, text, FILES.pdf.name);
      await uploadFiles(page, text, [FILES.pdf]);
      await field(page, LABELS.notes).fill('Call me in the mornings.');
      await waitForSaved(page, text);
      await atScreen('step-3-files');

      await toReview(page, text);
      for (const answer of [
        'Avery Quinn',
        'avery.quinn@example.com',
        'Germany',
        text.t('review.filesCount', { count: 2 }),
      ]) {
        await expect.poll(() => page.getByText(answer).count()).toBeGreaterThan(0);
      }
      await atScreen('review');
      await submitForm(page, text);
      // The done screen keeps a copy of the answers; the link opened again shows the same.
      for (const screen of ['done', 'done-reopened']) {
        if (screen === 'done-reopened') await page.reload();
        await heading(page, text.t('done.copyTitle')).waitFor();
        await page.getByText('Avery Quinn').first().waitFor();
        await page.getByText('Germany').first().waitFor();
        await atScreen(screen);
      }
      watch.assertClean();
    } finally {
      await context.close();
    }

    await drain(service);
    const types = (await eventTypes(service, tenant, form.onboardingId)).filter((type) =>
      ['onboarding.sent', 'onboarding.started', 'response.submitted', 'onboarding.completed'].includes(type),
    );
    expect(types).toEqual([
      'onboarding.sent',
      'onboarding.started',
      'response.submitted',
      'response.submitted',
      'response.submitted',
      'onboarding.completed',
    ]);
  }, 120_000);

  it('the same screens at the laptop size', async () => {
    const form = await sent();
    const { context, page, watch } = await openPage(browser, 'desktop');
    try {
      await page.goto(form.link);
      await walkForm(page, {
        text,
        pin: PIN,
        dateFormat: DATE_FORMAT,
        signer: { name: 'Avery Quinn', email: 'avery.quinn@example.com' },
        atScreen: screens(page, 'desktop'),
      });
      watch.assertClean();
    } finally {
      await context.close();
    }
  }, 90_000);
});
