import { clientEmailText, type ClientEmailInput } from '../client-email.ts';
import { inviteEmail, portalLink } from '../invite-email.ts';
import { reminderEmail } from '../reminder-email.ts';
import type { ClientEmailExtras, ClientEmailKind } from './kinds.ts';

/** One rendered email. */
export interface ComposedEmail {
  subject: string;
  text: string;
}

type Composer<K extends ClientEmailKind> = (input: ClientEmailInput & ClientEmailExtras[K]) => ComposedEmail;

const openLine = (input: ClientEmailInput, token: string | undefined, fieldId?: string) =>
  token
    ? `Open your form: ${portalLink(input.publicUrl, token)}${fieldId ? `?field=${encodeURIComponent(fieldId)}` : ''}`
    : 'Open your form with the link in the invite email you received.';

/** Each kind's email (en-US plain text). */
export const COMPOSERS: { [K in ClientEmailKind]: Composer<K> } = {
  invite: inviteEmail,
  reminder: reminderEmail,
  reopened: (input) => ({
    subject: `${input.fromName} reopened ${input.templateName}`,
    text: clientEmailText(input, [
      `${input.fromName} has reopened "${input.templateName}" for you.`,
      ...(input.reason ? ['', `Why: ${input.reason}`] : []),
      '',
      openLine(input, input.token),
    ]),
  }),
  changes_requested: (input) => ({
    subject: `${input.fromName} asks you to change answers in ${input.templateName}`,
    text: clientEmailText(input, [
      `${input.fromName} has looked at your answers to "${input.templateName}" and asks you to change:`,
      '',
      ...input.answers.map((answer) => `- ${answer.label}: ${answer.reason}`),
      '',
      openLine(input, input.token, input.fieldId),
    ]),
  }),
  completed: (input) => ({
    subject: `Your copy of ${input.templateName}`,
    text: clientEmailText(input, [
      `Thank you: ${input.fromName} has received "${input.templateName}".`,
      '',
      ...input.steps.flatMap((step) => [
        step.title,
        ...step.answers.map((answer) => `- ${answer.label}: ${answer.text}`),
        '',
      ]),
      input.token
        ? `Your copy of what you sent: ${portalLink(input.publicUrl, input.token)}`
        : 'Your copy of what you sent is on the link of your invite email.',
    ]),
  }),
};

/** The email of `kind` for `input`. */
export function composeClientEmail<K extends ClientEmailKind>(
  kind: K,
  input: ClientEmailInput & ClientEmailExtras[K],
): ComposedEmail {
  return (COMPOSERS[kind] as Composer<K>)(input);
}
