import { composeClientEmail, type ComposedEmail } from './client-emails/compose.ts';
import type { ClientEmailInput } from './client-emails/email-input.ts';

/**
 * The reminder email of a sent onboarding (queued in mail_outbox with kind reminder, text
 * and HTML). Like the invite it never holds the PIN (services/onboardings/client-email.ts).
 * The link is the active one; when it cannot be found (its invite was erased), the client
 * is pointed to the invite email instead. `message`: a member's own words ("Send a reminder now").
 */
export interface ReminderEmailInput extends ClientEmailInput {
  /** The active client token, when known. */
  token: string | undefined;
  message?: string | null;
}

export const reminderEmail = (input: ReminderEmailInput): ComposedEmail =>
  composeClientEmail('reminder', input);
