/**
 * Driving the review of answers on /workspace/onboardings/<id> by what it shows: the
 * Approve / Reject buttons named after the field, the reason dialog, the versions and
 * diff of an answer, and the timeline, with the keyboard alone where a person would.
 */
import type { Page } from 'playwright-core';
import { button, shown } from './workspace-page.ts';

/** The card of one answer by its field's label. */
export const answerCard = (member: Page, label: string) =>
  member.locator('li.review-answer').filter({ has: member.getByRole('heading', { name: label }) });

/** Keyboard only: Reject <label>, type the reason, Tab to the dialog's button, Enter. */
export async function rejectWithKeyboard(
  member: Page,
  label: string,
  reason: string,
  atDialog?: () => Promise<void>,
) {
  await button(member, `Reject ${label}`).focus();
  await member.keyboard.press('Enter');
  await shown(member.getByRole('dialog'));
  if (atDialog) await atDialog();
  await member.keyboard.type(reason);
  await member.keyboard.press('Tab');
  await member.keyboard.press('Enter');
  await shown(member.getByText(`“${label}” rejected; the client can change it.`));
}

/** Keyboard only: Approve <label>. */
export async function approveWithKeyboard(member: Page, label: string) {
  await button(member, `Approve ${label}`).focus();
  await member.keyboard.press('Enter');
  await shown(member.getByText(`“${label}” approved.`));
}

/** Waits until the timeline lists every one of `entries`. */
export async function expectTimeline(member: Page, entries: string[]) {
  const timeline = member.locator('ol.timeline');
  for (const entry of entries) await shown(timeline.getByText(entry));
}
