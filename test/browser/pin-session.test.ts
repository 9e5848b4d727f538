import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pinHashRuns } from '../../services/onboardings/link-secrets.ts';
import { LINK_SESSION_IDLE_SECONDS } from '../../services/onboardings/portal/portal-link-sessions.ts';
import { emailTranslator } from '../../services/onboardings/client-emails/catalog.ts';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  type ViewportName,
} from '../helpers/browser.ts';
import { adminRequest } from '../helpers/tenant.ts';
import { enterPin, field, heading, texts, waitForSaved } from './form-page.ts';
import {
  createFormTenant,
  expectLogFreeOf,
  sendForm,
  simpleTemplate,
  startFormService,
  type FormService,
  type FormTenant,
} from './form-service.ts';

/**
 * The client's form with a PIN link (rate limits on): the PIN is entered once; the link
 * session (an HttpOnly cookie) keeps the form open over a reload while it lives, and the
 * page keeps the PIN in no storage of the browser.
 */

const PIN = '604938';
const text = texts('en-US');

let service: FormService;
let browser: Browser;
let tenant: FormTenant;
const secrets = { tokens: [] as string[], pins: [PIN] };

beforeAll(async () => {
  service = await startFormService({ RATE_LIMITS: 'on' });
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

/** Every key and value of the page's sessionStorage and localStorage. */
const storedTexts = (page: Page): Promise<string[]> =>
  page.evaluate(`(() => {
    const all = [];
    for (const store of [window.sessionStorage, window.localStorage]) {
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i);
        all.push(key, store.getItem(key) ?? '');
      }
    }
    return all;
  })()`);

for (const viewport of ['mobile', 'desktop'] as ViewportName[]) {
  it(`${viewport}: the PIN once, then a reload keeps the form open; the PIN is in no storage`, async () => {
    const form = await sendForm(service, tenant, { pin: PIN });
    secrets.tokens.push(form.token);
    const { context, page, watch } = await openPage(browser, viewport);
    try {
      const hashesBefore = pinHashRuns();
      await page.goto(form.link);
      await enterPin(page, text, PIN);
      await heading(page, 'Contact').waitFor();
      await field(page, 'Full name').fill('Avery Quinn');
      await waitForSaved(page, text);

      const cookies = await context.cookies();
      const session = cookies.find((cookie) => cookie.name.startsWith('portal_link_'));
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/portal/v1/onboardings/' });
      secrets.tokens.push(session!.value);
      // HttpOnly: the page's scripts cannot read it.
      expect(await page.evaluate('document.cookie')).not.toContain(session!.value);

      // A PIN an earlier version of the page kept for the tab is removed on the next load.
      await page.evaluate(`sessionStorage.setItem('onboarding-pin:0123456789abcdef', '${PIN}')`);
      await page.reload();
      await heading(page, 'Contact').waitFor();
      expect(await heading(page, text.t('pin.title')).count()).toBe(0);
      await expect.poll(() => field(page, 'Full name').inputValue()).toBe('Avery Quinn');
      await field(page, 'Notes').fill('Mornings are best.');
      await waitForSaved(page, text);
      // The PIN was hashed once for the whole visit, reload and autosaves included.
      expect(pinHashRuns() - hashesBefore).toBe(1);

      const stored = await storedTexts(page);
      expect(stored.some((entry) => entry.includes(PIN))).toBe(false);
      expect(stored.some((entry) => entry.startsWith('onboarding-pin:'))).toBe(false);
      await expectNoAxeViolations(page, `form after a reload (${viewport})`);
      watch.assertClean();
    } finally {
      await context.close();
    }
  }, 60_000);
}

it('once the session has ended, a reload asks for the PIN again', async () => {
  const form = await sendForm(service, tenant, { pin: PIN });
  secrets.tokens.push(form.token);
  const { context, page, watch } = await openPage(browser, 'desktop');
  try {
    await page.goto(form.link);
    await enterPin(page, text, PIN);
    await heading(page, 'Contact').waitFor();
    expect(
      (await adminRequest(service, 'POST', '/clock/advance', { seconds: LINK_SESSION_IDLE_SECONDS + 60 }))
        .status,
    ).toBe(200);
    await page.reload();
    await heading(page, text.t('pin.title')).waitFor();
    await enterPin(page, text, PIN);
    await heading(page, 'Contact').waitFor();
    watch.assertClean();
  } finally {
    await context.close();
  }
}, 60_000);

for (const viewport of ['mobile', 'desktop'] as ViewportName[]) {
  it(`${viewport}: a German client's invite and PIN page say the same: the PIN comes from the team, not in the email`, async () => {
    const form = await sendForm(service, tenant, { pin: PIN, client: { locale: 'de-DE' } });
    secrets.tokens.push(form.token);
    const team = 'Northwind Advisors';
    const german = texts('de-DE');
    const { rows } = await service.database.pool.query<{ text: string; html: string }>(
      `select text, html from mail_outbox where onboarding_id = $1 and kind = 'invite'`,
      [form.onboardingId],
    );
    const [mailText, mailHtml] = await Promise.all(
      [rows[0]!.text, rows[0]!.html].map((sealed) => service.context.vault.open(JSON.parse(sealed))),
    );
    const pinLine = emailTranslator('de-DE').t('pin', { team });
    expect(mailText).toContain(pinLine);
    expect(mailText).not.toContain(PIN);
    expect(mailHtml).not.toContain(PIN);

    const { context, page, watch } = await openPage(browser, viewport);
    try {
      // The invite as a mail client shows its HTML part.
      await page.setContent(mailHtml!);
      await page.getByText(pinLine).waitFor();
      await page.getByRole('link', { name: 'Formular öffnen' }).waitFor();
      await expectNoAxeViolations(page, `invite email, de-DE (${viewport})`);
      await screenshot(page, 'pin-session', 'invite-email-de', viewport);

      await page.goto(form.link);
      await heading(page, german.t('pin.title')).waitFor();
      await page.getByText(german.t('pin.intro', { team })).waitFor();
      await page.getByText(german.t('pin.help', { team })).waitFor();
      await expectNoAxeViolations(page, `PIN page, de-DE (${viewport})`);
      await screenshot(page, 'pin-session', 'pin-de', viewport);
      watch.assertClean();
    } finally {
      await context.close();
    }
  }, 60_000);
}
