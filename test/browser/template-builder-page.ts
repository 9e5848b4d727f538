/**
 * Driving the template builder (/workspace/templates/<id>) by what it shows: step cards by
 * their "Step N" heading, field cards by their "<label> (<type>)" heading (a toggle that opens
 * the card), the palette's type picker and Add field, the save bar and the live preview.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { button, TIMEOUT } from './workspace-page.ts';

/** The card of a field (the innermost list item holding its heading). */
export const fieldCard = (page: Page, name: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${name} \\(`) }) })
    .last();

/** The toggle (the heading's button) of a field card: opens it and closes any other. */
export const cardToggle = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name} \\(`) });

/** Opens a field card (when closed) and returns it. */
export async function openCard(page: Page, name: string): Promise<Locator> {
  const toggle = cardToggle(page, name);
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-expanded'), { timeout: TIMEOUT }).toBe('true');
  return fieldCard(page, name);
}

/** The card of a step by its number ("Step 2" or "Step 2: Documents"). */
export const stepCard = (page: Page, number: number) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name: new RegExp(`^Step ${number}(: |$)`) }) })
    .first();

/** Adds a field of `type` to `step` and types its label into the label that gets focus. */
export async function addField(step: Locator, type: string, label: string) {
  await step.getByLabel('Type of the new field', { exact: true }).selectOption({ label: type });
  await button(step, 'Add field').click();
  const page = step.page();
  const input = page.locator(':focus');
  await expect.poll(() => input.inputValue(), { timeout: TIMEOUT }).toBe(type);
  await input.fill(label);
}

/** The field headings of a step, in their order. */
export const fieldOrder = (step: Locator) =>
  step.getByRole('heading', { level: 3 }).evaluateAll((headings) => headings.map((h) => h.textContent));

/** What the save bar says of unsaved changes. */
export const saveState = (page: Page) => page.locator('.builder-save-state').textContent();

/** The page's height in screens (document height over the window's). */
export const screensTall = (page: Page) =>
  page.evaluate<number>('document.scrollingElement.scrollHeight / window.innerHeight');

/** The texts that describe the focused input (its aria-describedby), joined by a space. */
export const focusedDescription = (page: Page) =>
  page.evaluate<string>(
    `(document.activeElement.getAttribute('aria-describedby') || '').split(' ')
      .map((id) => document.getElementById(id)?.textContent).join(' ')`,
  );

/** Opens the saved template's preview (the real client form) in a new tab and waits for it. */
export async function openPreview(page: Page): Promise<Page> {
  const [preview] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('link', { name: 'Open the preview (new tab)' }).click(),
  ]);
  await preview.waitForLoadState();
  return preview;
}
