import { composeClientEmail, type ComposedEmail } from './client-emails/compose.ts';
import type { ClientEmailInput } from './client-emails/email-input.ts';

export { portalLink } from './client-emails/email-input.ts';

/**
 * The invite email of a send (queued in mail_outbox, text and HTML). The link is the form
 * page of the new token (`/f/<token>`, services/web/web-routes.ts); the PIN itself is never
 * written in an email (services/onboardings/client-email.ts).
 */
export interface InviteEmailInput extends ClientEmailInput {
  token: string;
}

export const inviteEmail = (input: InviteEmailInput): ComposedEmail => composeClientEmail('invite', input);
