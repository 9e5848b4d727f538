import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, openPage, screenshot } from '../helpers/browser.ts';
import { apiRequest, createApiKey, createTemplate, type Template } from '../helpers/tenant.ts';
import { sendForm, type FormTenant } from './form-service.ts';
import { heading, submitForm, texts, toReview, waitForSaved } from './form-page.ts';
import { screens, shown, signUp, TIMEOUT } from './workspace-page.ts';
import { inPage, startWorkspaceService, type WorkspaceService } from './workspace-service.ts';

/**
 * Dates for the client in Chromium (docs/decisions/0078): a de-DE client types 23.06.1990
 * and a ja-JP client 1990/06/23, each in the date field of the real form (one at 390x844,
 * one at 1280x900); both are stored as 1990-06-23, and the member's review shows each as
 * its client reads it ("23. Juni 1990", "1990年6月23日"). A client without a chosen language
 * sees the browser's. axe-core finds nothing on the date step and on the review at both sizes.
 */

const OWNER = {
  team: 'Calendar Advisors',
  name: 'Dora Dates',
  email: 'dora.dates@example.com',
  password: 'a long dates passphrase 7731',
};
const BORN = 'Date of birth';

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

const datesTemplate = () => ({
  name: 'Dates intake',
  steps: [
    {
      title: 'About you',
      sort_order: 1,
      fields: [{ type: 'date', label: BORN, sort_order: 1, is_required: true }],
    },
  ],
});

const cases = [
  {
    locale: 'de-DE',
    date_format: 'DD.MM.YYYY',
    timezone: 'Europe/Berlin',
    typed: '23.06.1990',
    viewport: 'mobile',
  },
  {
    locale: 'ja-JP',
    date_format: 'YYYY-MM-DD',
    timezone: 'Asia/Tokyo',
    typed: '1990/06/23',
    viewport: 'desktop',
  },
] as const;
const READ = { 'de-DE': '23. Juni 1990', 'ja-JP': '1990年6月23日' };

async function fillAndSubmit(page: Page, link: string, locale: string, typed: string, name: string) {
  const text = texts(locale);
  await page.goto(link);
  await heading(page, 'About you').first().waitFor({ timeout: TIMEOUT });
  const input = page.getByLabel(BORN, { exact: true });
  await input.fill(typed);
  await input.blur();
  await waitForSaved(page, text);
  // The device's calendar is offered beside the typed date and holds the same day.
  expect(await page.locator('input[type="date"]').inputValue()).toBe('1990-06-23');
  await screenshot(page, 'client-dates', `${name}-date-step`, name.endsWith('mobile') ? 'mobile' : 'desktop');
  await expectNoAxeViolations(page, `date step (${name})`);
  await toReview(page, text);
  await submitForm(page, text);
}

describe('dates in the client’s own format', () => {
  it('a de-DE and a ja-JP client type the date their way; both store 1990-06-23; the review reads it in each language', async () => {
    const { page: member } = await openPage(browser, 'desktop');
    await member.goto(`${service.publicUrl}/workspace/sign-up`);
    await signUp(member, OWNER);
    const me = (await inPage(member, 'GET', '/workspace/v1/me')).body as { team: { id: string } };
    const key = await createApiKey(service, me.team.id);
    const template: Template = await createTemplate(service, me.team.id, datesTemplate());
    const tenant = { ...key, teamId: me.team.id, template } as unknown as FormTenant;

    for (const { locale, date_format, timezone, typed, viewport } of cases) {
      const sent = await sendForm(service, tenant, { client: { locale, date_format, timezone } });
      const { page: client, context } = await openPage(browser, viewport);
      await fillAndSubmit(client, sent.link, locale, typed, `${locale}-${viewport}`);
      await context.close();

      const stored = await apiRequest(
        service,
        key.apiKey,
        'GET',
        `/responses?onboarding_id=${sent.onboardingId}`,
      );
      expect(stored.body.responses.map((response: { value: unknown }) => response.value)).toEqual([
        '1990-06-23',
      ]);

      const check = screens(member, `client-dates-review-${locale}`);
      await member.goto(`${service.publicUrl}/workspace/onboardings/${sent.onboardingId}`);
      await shown(member.getByRole('heading', { name: 'Answers' }));
      const answer = member.locator('li.review-answer', { hasText: BORN });
      await answer.getByText('Versions (1)').click();
      await shown(answer.getByText(READ[locale]));
      await check('review');
    }

    // A client without a chosen language sees the form in the browser's (de-AT: Deutsch), its
    // dates as German writes them.
    const unchosen = await sendForm(service, tenant);
    const { page: client, context } = await openPage(browser, 'mobile', { locale: 'de-AT' });
    await client.goto(unchosen.link);
    await heading(client, 'About you').first().waitFor({ timeout: TIMEOUT });
    expect(await client.getAttribute('html', 'lang')).toMatch(/^de/);
    await shown(client.getByText(texts('de-DE').t('field.dateHint', { format: 'DD.MM.YYYY' })));
    await context.close();
  }, 120_000);
});
