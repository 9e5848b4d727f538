import { clientEmailText, type ClientEmailInput } from './client-email.ts';
import { portalLink } from './invite-email.ts';

/**
 * The reminder email of a sent onboarding (plain text, queued in mail_outbox with kind
 * reminder). Like the invite it never holds the PIN (services/onboardings/client-email.ts).
 * The link is the active one; when it cannot be found (its invite was erased), the client
 * is pointed to the invite email instead.
 */
export interface ReminderEmailInput extends ClientEmailInput {
  /** The active client token, when known. */
  token: string | undefined;
}

export function reminderEmail(input: ReminderEmailInput): { subject: string; text: string } {
  return {
    subject: `Reminder: ${input.templateName} from ${input.fromName}`,
    text: clientEmailText(input, [
      `This is a reminder from ${input.fromName}: "${input.templateName}" is still waiting for you.`,
      '',
      input.token
        ? `Open your form: ${portalLink(input.publicUrl, input.token)}`
        : 'Open your form with the link in the invite email you received.',
    ]),
  };
}
