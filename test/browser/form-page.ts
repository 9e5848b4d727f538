/**
 * Driving the client's form as a person does, by what the page shows: headings, buttons and
 * controls are found by their accessible names (the field labels of the template and the
 * page's texts of messages/<locale>.json), never by CSS classes.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { AGREEMENT_TEXT, LABELS, SAMPLE_PDF, SAMPLE_PNG, STEP_TITLES, messages } from './form-service.ts';

export const TEAM_NAME = 'Northwind Advisors';

/** The page's texts in one locale, formatted with ICU as the page formats them. */
export function texts(locale: string) {
  const all = messages(locale);
  const english = messages('en-US');
  const raw = (key: string) => {
    const message = all[key] ?? english[key];
    if (message === undefined) throw new Error(`no message ${key}`);
    return message;
  };
  return {
    raw,
    /** The message `key` with `values`. */
    t(key: string, values: Record<string, string | number> = {}) {
      return String(new IntlMessageFormat(raw(key), locale).format(values));
    },
    /** A pattern of the message `key` where each {argument} may be any text. */
    pattern(key: string) {
      const parts = raw(key).split(/\{[^{}]*\}/);
      return new RegExp(parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+'));
    },
  };
}

export type Texts = ReturnType<typeof texts>;

/** YYYY-MM-DD in one of the service's date formats (MM/DD/YYYY, DD/MM/YYYY, YYYY-MM-DD, DD.MM.YYYY). */
export function inDateFormat(isoDate: string, format: string): string {
  const [year, month, day] = isoDate.split('-') as [string, string, string];
  return format.replace('YYYY', year).replace('MM', month).replace('DD', day);
}

const TIMEOUT = 10_000;

export const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name });
export const button = (page: Page, name: string | RegExp) => page.getByRole('button', { name });

/** Waits for the step titled `title` to be the one shown. */
export async function expectStep(page: Page, title: string) {
  await heading(page, title).first().waitFor({ timeout: TIMEOUT });
}

/** The PIN screen: types `pin` and opens the form. */
export async function enterPin(page: Page, text: Texts, pin: string) {
  await heading(page, text.t('pin.title')).waitFor({ timeout: TIMEOUT });
  const input = page.getByLabel(text.t('pin.label'));
  await input.fill(pin);
  await button(page, text.t('pin.submit')).click();
}

/** Waits until the save status says every change is saved. */
export async function waitForSaved(page: Page, text: Texts) {
  await page.getByText(text.t('save.saved')).first().waitFor({ timeout: TIMEOUT });
}

export const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** What the journeys type into step 1. */
export const STEP_ONE = {
  short_text: 'Avery Quinn',
  long_text: 'We run a small bakery with two shops.',
  email: 'avery.quinn@example.com',
  phone: '+1 555 123 4567',
  number: '12',
  date: '1988-04-23',
};

/** Fills every field of step 1; the date is typed in the client's `dateFormat`. */
export async function fillStepOne(page: Page, dateFormat: string) {
  await field(page, LABELS.short_text).fill(STEP_ONE.short_text);
  await field(page, LABELS.long_text).fill(STEP_ONE.long_text);
  await field(page, LABELS.email).fill(STEP_ONE.email);
  await field(page, LABELS.phone).fill(STEP_ONE.phone);
  await field(page, LABELS.number).fill(STEP_ONE.number);
  await field(page, LABELS.date).fill(inDateFormat(STEP_ONE.date, dateFormat));
  await field(page, LABELS.date).blur();
}

/** Step 1 shows what fillStepOne typed (after a reload: what the service saved). */
export async function expectStepOne(page: Page, dateFormat: string) {
  await expect.poll(() => field(page, LABELS.short_text).inputValue()).toBe(STEP_ONE.short_text);
  expect(await field(page, LABELS.long_text).inputValue()).toBe(STEP_ONE.long_text);
  expect(await field(page, LABELS.email).inputValue()).toBe(STEP_ONE.email);
  expect(await field(page, LABELS.phone).inputValue()).toBe(STEP_ONE.phone);
  expect((await field(page, LABELS.number).inputValue()).replace(/\s/g, '')).toBe(STEP_ONE.number);
  expect(await field(page, LABELS.date).inputValue()).toBe(inDateFormat(STEP_ONE.date, dateFormat));
}

const group = (page: Page, label: string) =>
  page.getByRole('group', { name: label }).or(page.getByRole('radiogroup', { name: label }));

/** The choices of step 2: Phone, Bookkeeping and Tax returns, Germany, the consent box. */
export async function fillChoices(page: Page) {
  await group(page, LABELS.single_choice).getByLabel('Phone', { exact: true }).check();
  await group(page, LABELS.multiple_choice).getByLabel('Bookkeeping', { exact: true }).check();
  await group(page, LABELS.multiple_choice).getByLabel('Tax returns', { exact: true }).check();
  await field(page, LABELS.dropdown).selectOption('de');
  await page.getByRole('checkbox', { name: LABELS.checkbox, exact: true }).check();
}

export async function expectChoices(page: Page) {
  const single = group(page, LABELS.single_choice);
  const multiple = group(page, LABELS.multiple_choice);
  await expect.poll(() => single.getByLabel('Phone', { exact: true }).isChecked()).toBe(true);
  expect(await single.getByLabel('Email', { exact: true }).isChecked()).toBe(false);
  expect(await multiple.getByLabel('Bookkeeping', { exact: true }).isChecked()).toBe(true);
  expect(await multiple.getByLabel('Payroll', { exact: true }).isChecked()).toBe(false);
  expect(await multiple.getByLabel('Tax returns', { exact: true }).isChecked()).toBe(true);
  expect(await field(page, LABELS.dropdown).inputValue()).toBe('de');
  expect(await page.getByRole('checkbox', { name: LABELS.checkbox, exact: true }).isChecked()).toBe(true);
}

/** The signature field: agreement shown in full, name and email typed, a stroke drawn, signed. */
export async function sign(page: Page, text: Texts, signer: { name: string; email: string }) {
  await page.getByText(AGREEMENT_TEXT).waitFor({ timeout: TIMEOUT });
  await page.getByLabel(text.t('signature.typeName'), { exact: true }).fill(signer.name);
  // The email signed as is the invitee's, shown rather than asked (docs/decisions/0079).
  await page.getByText(text.pattern('signature.signingAs')).first().waitFor({ timeout: TIMEOUT });
  await drawStroke(page, page.locator('canvas').first());
  // The drawing is autosaved as the field's draft; a draft saved after the signature hides
  // the signature from the form (the responses read model keeps one value per field), so
  // Sign waits until the drawing is saved.
  await waitForSaved(page, text);
  await page.getByRole('button', { name: text.t('signature.sign'), exact: true }).click();
  await page.getByText(signer.name, { exact: false }).first().waitFor({ timeout: TIMEOUT });
  await page.getByText(text.pattern('signature.signed')).first().waitFor({ timeout: TIMEOUT });
}

/** A short zigzag with the mouse (or, on a touch context, pointer events of a pen alike). */
export async function drawStroke(page: Page, canvas: Locator) {
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('the signature drawing area is not visible');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.2, y);
  await page.mouse.down();
  for (let step = 1; step <= 8; step++) {
    await page.mouse.move(box.x + box.width * (0.2 + step * 0.07), y + (step % 2 === 0 ? -15 : 15), {
      steps: 2,
    });
  }
  await page.mouse.up();
}

export const FILES = {
  png: { name: 'passport-scan.png', mimeType: 'image/png', buffer: SAMPLE_PNG },
  pdf: { name: 'utility-bill.pdf', mimeType: 'application/pdf', buffer: SAMPLE_PDF },
};

const fileInput = (page: Page) => page.locator('input[type=file]').first();

/** Adds files through the file picker and waits until each is listed as uploaded. */
export async function uploadFiles(page: Page, text: Texts, files: (typeof FILES)[keyof typeof FILES][]) {
  await fileInput(page).setInputFiles(files);
  for (const file of files) {
    await button(page, text.t('files.remove', { name: file.name })).waitFor({ timeout: TIMEOUT });
  }
}

export async function removeFile(page: Page, text: Texts, name: string) {
  await button(page, text.t('files.remove', { name })).click();
  await button(page, text.t('files.remove', { name })).waitFor({ state: 'detached', timeout: TIMEOUT });
}

/** From any step, Next until the step titled `title` shows. */
export async function nextTo(page: Page, text: Texts, title: string) {
  await button(page, text.t('nav.next')).click();
  await expectStep(page, title);
}

/** The review screen from the last step. */
export async function toReview(page: Page, text: Texts) {
  const review = button(page, text.t('nav.toReview'));
  if (await review.isVisible()) await review.click();
  else await button(page, text.t('nav.next')).click();
  await heading(page, text.t('review.title')).waitFor({ timeout: TIMEOUT });
}

export async function submitForm(page: Page, text: Texts) {
  await button(page, text.t('review.submit')).click();
  await heading(page, text.t('done.title')).waitFor({ timeout: 15_000 });
}

export { LABELS, STEP_TITLES };

export interface WalkOptions {
  text: Texts;
  pin?: string;
  dateFormat: string;
  signer: { name: string; email: string };
  /** Called on each screen once it shows: screenshots, axe. */
  atScreen(screen: string): Promise<void>;
  /** Called once step 2 has its choices saved (the journey reloads there). */
  afterChoices?(): Promise<void>;
}

/** Link opened: PIN, every step filled, files, signature, review, submit, done. */
export async function walkForm(page: Page, options: WalkOptions) {
  const { text } = options;
  if (options.pin) {
    await heading(page, text.t('pin.title')).waitFor({ timeout: TIMEOUT });
    await options.atScreen('pin');
    await enterPin(page, text, options.pin);
  }
  await expectStep(page, STEP_TITLES[0]);
  await options.atScreen('step-1');
  await fillStepOne(page, options.dateFormat);
  await waitForSaved(page, text);
  await nextTo(page, text, STEP_TITLES[1]);
  await options.atScreen('step-2');
  await fillChoices(page);
  await waitForSaved(page, text);
  await options.afterChoices?.();
  await sign(page, text, options.signer);
  await options.atScreen('step-2-signed');
  await nextTo(page, text, STEP_TITLES[2]);
  await options.atScreen('step-3');
  await uploadFiles(page, text, [FILES.png, FILES.pdf]);
  await field(page, LABELS.notes).fill('Call me in the mornings.');
  await waitForSaved(page, text);
  await options.atScreen('step-3-files');
  await toReview(page, text);
  await options.atScreen('review');
  await submitForm(page, text);
  await options.atScreen('done');
}
