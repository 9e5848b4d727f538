/**
 * Driving the template builder (/workspace/templates/<id>) by what it shows: step cards by
 * their "Step N: " heading, field cards by their "<label> (<type>)" heading, the new field's
 * type picker and Add field.
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

/** The card of a step by its number. */
export const stepCard = (page: Page, number: number) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name: new RegExp(`^Step ${number}: `) }) })
    .first();

/** Adds a field of `type` to `step` and types its label into the title that gets focus. */
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
  step
    .getByRole('heading', { level: 3 })
    .evaluateAll((headings) => headings.map((h) => h.textContent).filter((text) => text !== 'Fields'));

/** Opens the saved template's preview (the real client form) in a new tab and waits for it. */
export async function openPreview(page: Page): Promise<Page> {
  const [preview] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('link', { name: 'Open the preview (new tab)' }).click(),
  ]);
  await preview.waitForLoadState();
  return preview;
}
