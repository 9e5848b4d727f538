import { portalLink } from '../../shared/domain/onboarding/invite-email.ts';

/**
 * The reminder email of a sent onboarding (plain text, queued in mail_outbox with kind
 * reminder). Like the invite it never holds the PIN, only a line saying the form asks
 * for it. The link is the active one; when it cannot be found (its invite was erased),
 * the client is pointed to the invite email instead.
 */
export interface ReminderEmailInput {
  publicUrl: string;
  /** The active client token, when known. */
  token: string | undefined;
  fromName: string;
  clientName: string | null;
  templateName: string;
  dueDate: string | null;
  dueOn: string | null;
  pinRequired: boolean;
}

export function reminderEmail(input: ReminderEmailInput): { subject: string; text: string } {
  const lines = [
    input.clientName ? `Hello ${input.clientName},` : 'Hello,',
    '',
    `This is a reminder from ${input.fromName}: "${input.templateName}" is still waiting for you.`,
    '',
    input.token
      ? `Open your form: ${portalLink(input.publicUrl, input.token)}`
      : 'Open your form with the link in the invite email you received.',
  ];
  const due = input.dueOn ?? input.dueDate;
  if (due) lines.push(`Please complete it by ${due}.`);
  if (input.pinRequired) lines.push(`The form asks for the PIN that ${input.fromName} gave you.`);
  lines.push('', 'This link is personal: please do not forward this email.');
  return { subject: `Reminder: ${input.templateName} from ${input.fromName}`, text: lines.join('\n') };
}
