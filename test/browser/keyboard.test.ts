import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  focusedElement,
  launchBrowser,
  openPage,
  screenshot,
  type FocusedElement,
} from '../helpers/browser.ts';
import { drain } from '../integration/portal-fixtures.ts';
import { TEAM_NAME, heading, texts } from './form-page.ts';
import {
  createFormTenant,
  eventTypes,
  expectLogFreeOf,
  sendForm,
  simpleTemplate,
  startFormService,
  type FormService,
  type FormTenant,
} from './form-service.ts';

/**
 * The whole form with the keyboard alone (Tab, Shift+Tab, typing, Space, Enter, arrows;
 * no mouse), and every element that takes focus on the way shows it (a computed outline or
 * box-shadow).
 */

const PIN = '407913';
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

const describeElement = (element: FocusedElement | null) =>
  element ? `${element.tag}${element.type ? `[type=${element.type}]` : ''} "${element.label}"` : 'nothing';

/** Focus stops without a visible focus indicator, over the whole test. */
const invisibleFocus = new Set<string>();

/**
 * Presses Tab (or Shift+Tab) until the focused element's label, aria-label or text is
 * `label`; notes every stop on the way that shows no focus.
 */
async function tabTo(page: Page, label: string, options: { backwards?: boolean } = {}) {
  const seen: string[] = [];
  for (let press = 0; press < 40; press++) {
    await page.keyboard.press(options.backwards ? 'Shift+Tab' : 'Tab');
    const focused = await focusedElement(page);
    seen.push(describeElement(focused));
    if (focused && !focused.visible) invisibleFocus.add(describeElement(focused));
    if (focused && focused.label.replace(/\s+/g, ' ') === label) return focused;
  }
  throw new Error(`Tab never reached "${label}"; focus went through:\n  ${seen.join('\n  ')}`);
}

/**
 * A new screen's heading takes focus once painted (ScreenHeading, for screen readers): wait
 * for that before tabbing on, or a Tab pressed first lands before the heading's focus.
 */
async function screenShown(page: Page, name: string) {
  await heading(page, name).waitFor();
  await expect
    .poll(async () => {
      const focused = await focusedElement(page);
      return focused?.tag === 'h1' && focused.label === name;
    })
    .toBe(true);
}

it('a client completes the form with the keyboard alone; focus is always visible', async () => {
  const form = await sendForm(service, tenant, { pin: PIN });
  secrets.tokens.push(form.token);
  const { context, page, watch } = await openPage(browser, 'desktop');
  try {
    await page.goto(form.link);
    await heading(page, text.t('pin.title')).waitFor();

    // PIN: typed, then Enter.
    await tabTo(page, text.t('pin.label'));
    await page.keyboard.type(PIN);
    await page.keyboard.press('Enter');
    await screenShown(page, 'Contact');

    // Text fields, with a step back by Shift+Tab.
    await tabTo(page, 'Full name');
    await page.keyboard.type('Kai Keyboard');
    await tabTo(page, 'Email address');
    await page.keyboard.type('kai.keyboard@example.com');
    const back = await tabTo(page, 'Full name', { backwards: true });
    expect(back.tag).toBe('input');
    expect(await page.getByLabel('Full name', { exact: true }).inputValue()).toBe('Kai Keyboard');

    // A choice by arrows: the first option takes focus, the arrow chooses the next.
    const first = await tabTo(page, 'Email');
    expect(first.type).toBe('radio');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.getByLabel('Phone', { exact: true }).isChecked()).toBe(true);

    await tabTo(page, 'Notes');
    await page.keyboard.type('Mornings are best.');

    // The consent box by Space.
    await tabTo(page, 'Privacy consent');
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByLabel('Privacy consent', { exact: true }).isChecked()).toBe(true);
    await screenshot(page, 'keyboard', 'step-1', 'desktop');

    await tabTo(page, text.t('nav.next'));
    await page.keyboard.press('Enter');
    await screenShown(page, 'Sign the letter');

    // The signature by the typed name.
    await tabTo(page, text.t('signature.typeName'));
    await page.keyboard.type('Kai Keyboard');
    // The email is the invitee's, shown rather than asked.
    await page.getByText(text.pattern('signature.signingAs')).waitFor();
    await tabTo(page, text.t('signature.sign'));
    await page.keyboard.press('Enter');
    await page.getByText(text.pattern('signature.signed')).first().waitFor();
    await screenshot(page, 'keyboard', 'step-2-signed', 'desktop');

    await tabTo(page, text.t('nav.toReview'));
    await page.keyboard.press('Enter');
    await screenShown(page, text.t('review.title'));
    await tabTo(page, text.t('review.submit'));
    await page.keyboard.press('Enter');
    await heading(page, text.t('done.title')).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByText(TEAM_NAME).count()).toBeGreaterThan(0);
    await screenshot(page, 'keyboard', 'done', 'desktop');
    watch.assertClean();
  } catch (error) {
    await screenshot(page, 'keyboard', 'failure', 'desktop').catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
  expect([...invisibleFocus], 'elements that took focus without showing it').toEqual([]);
  await drain(service);
  expect(await eventTypes(service, tenant, form.onboardingId)).toContain('onboarding.completed');
}, 90_000);
