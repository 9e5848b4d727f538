import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, openPage, screenshot } from '../helpers/browser.ts';
import { apiRequest } from '../helpers/tenant.ts';
import { drain } from '../integration/portal-fixtures.ts';
import { button, expectStep, heading, inDateFormat, texts, walkForm } from './form-page.ts';
import {
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
 * The journey in the client's language (the client's locale, not the team's): the page's
 * texts are those of messages/<locale>.json and dates are in the client's date_format.
 */

const DUE_DATE = '2031-03-14';

let service: FormService;
let browser: Browser;
let tenant: FormTenant;
const secrets = { tokens: [] as string[], pins: ['864213'] };

beforeAll(async () => {
  service = await startFormService();
  browser = await launchBrowser();
  // The team writes in US English; only the clients' settings choose the language.
  tenant = await createFormTenant(service, { locale: 'en-US', date_format: 'MM/DD/YYYY' });
});

afterAll(async () => {
  try {
    if (service) expectLogFreeOf(service, secrets);
  } finally {
    await browser?.close();
    await service?.stop();
  }
});

/** The calendar day YYYY-MM-DD of an instant in a time zone. */
function dayIn(instant: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(instant));
}

const cases = [
  { locale: 'de-DE', dateFormat: 'DD.MM.YYYY', timezone: 'Europe/Berlin', signer: 'Anna Schäfer' },
  { locale: 'ja-JP', dateFormat: 'YYYY-MM-DD', timezone: 'Asia/Tokyo', signer: '山田 花子' },
];

describe.each(cases)('a client in $locale', ({ locale, dateFormat, timezone, signer }) => {
  it('sees the texts of its language and dates in its format, and completes the form', async () => {
    const text = texts(locale);
    const english = texts('en-US');
    expect(text.t('nav.next')).not.toBe(english.t('nav.next'));
    const form = await sendForm(service, tenant, {
      pin: secrets.pins[0],
      due_date: DUE_DATE,
      client: { locale, date_format: dateFormat, timezone },
    });
    secrets.tokens.push(form.token);
    // The due date is the end of that day in the team's time zone, shown as the client's day.
    const due = await apiRequest(service, tenant.apiKey, 'GET', `/onboardings/${form.onboardingId}`);
    const dueDay = dayIn(due.body.onboarding.due_date as string, timezone);
    const { context, page, watch } = await openPage(browser, 'mobile');
    try {
      await page.goto(form.link);
      await heading(page, text.t('pin.title')).waitFor();
      expect(await page.getAttribute('html', 'lang')).toMatch(new RegExp(`^${locale.slice(0, 2)}`));
      let dueDateSeen = false;
      await walkForm(page, {
        text,
        pin: secrets.pins[0],
        dateFormat,
        signer: { name: signer, email: 'client@example.com' },
        atScreen: async (screen) => {
          if (screen === 'step-1') {
            await expect.poll(() => button(page, text.t('nav.next')).count()).toBeGreaterThan(0);
            await page.getByText(text.t('due.on', { date: inDateFormat(dueDay, dateFormat) })).waitFor();
            dueDateSeen = true;
            await expectStep(page, STEP_TITLES[0]);
            expect(await page.getByText(english.t('nav.next'), { exact: true }).count()).toBe(0);
          }
          await screenshot(page, `journey-${locale}`, screen, 'mobile');
          if (['pin', 'step-1', 'review', 'done'].includes(screen)) {
            await expectNoAxeViolations(page, `${screen} (${locale})`);
          }
        },
      });
      expect(dueDateSeen).toBe(true);
      watch.assertClean();
    } catch (error) {
      await screenshot(page, `journey-${locale}`, 'failure', 'mobile').catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
    await drain(service);
    expect(await eventTypes(service, tenant, form.onboardingId)).toContain('onboarding.completed');
  }, 90_000);
});
