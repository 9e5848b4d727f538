import { fillPlaceholders, type PlaceholderValues } from './placeholders.ts';

/**
 * The texts an emailing action sends, from the rule's texts and the placeholder values. One
 * place for real runs (./actions.ts) and for the rule dialog's preview and test send
 * (./rule-trial.ts), so what a member previews is what the reader gets. Pure.
 */

export const notificationSubject = (teamName: string) => `[${teamName}] Workflow notification`;

/** The body of Notify team member: the heading, the message, a line naming the rule's team. */
export const notificationText = (teamName: string, message: string) =>
  ['Workflow notification', '', message, '', `Sent by an automation rule of the team ${teamName}.`].join(
    '\n',
  );

/** A subject is one line: line breaks a placeholder brought in become spaces. */
const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();

/** Send email: the subject on one line, the body as typed, placeholders filled. */
export function renderEmail(
  action: { subject: string; body: string },
  values: PlaceholderValues,
): { subject: string; text: string } {
  return {
    subject: oneLine(fillPlaceholders(action.subject, values)),
    text: fillPlaceholders(action.body, values),
  };
}

/** Notify team member: the fixed subject and the message inside the notification's frame. */
export function renderNotification(
  teamName: string,
  message: string,
  values: PlaceholderValues,
): { subject: string; text: string } {
  return {
    subject: notificationSubject(teamName),
    text: notificationText(teamName, fillPlaceholders(message, values)),
  };
}
