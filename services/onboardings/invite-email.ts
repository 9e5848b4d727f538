import { clientEmailText, type ClientEmailInput } from './client-email.ts';

/**
 * The invite email of a send (plain text, queued in mail_outbox). The link is the form
 * page of the new token (`/f/<token>`, services/web/web-routes.ts); the PIN itself is never written in an email (./client-email.ts).
 */
export interface InviteEmailInput extends ClientEmailInput {
  token: string;
}

/** The form page of a client link (the page reads the portal API with the token). */
export const portalLink = (publicUrl: string, token: string) => `${publicUrl.replace(/\/$/, '')}/f/${token}`;

export function inviteEmail(input: InviteEmailInput): { subject: string; text: string } {
  return {
    subject: `${input.fromName} invited you to fill in ${input.templateName}`,
    text: clientEmailText(input, [
      `${input.fromName} has invited you to fill in "${input.templateName}".`,
      '',
      `Open your form: ${portalLink(input.publicUrl, input.token)}`,
    ]),
  };
}
