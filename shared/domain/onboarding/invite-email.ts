/**
 * The invite email of a send (plain text, queued in mail_outbox). The link is the portal
 * URL of the new token; the PIN itself is never written in an email (the team gives it to
 * the client by another way), only a line saying the link needs it.
 */
export interface InviteEmailInput {
  publicUrl: string;
  token: string;
  fromName: string;
  clientName: string | null;
  templateName: string;
  dueDate: string | null;
  dueOn: string | null;
  pinRequired: boolean;
}

export const portalLink = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/$/, '')}/portal/v1/onboardings/${token}`;

export function inviteEmail(input: InviteEmailInput): { subject: string; text: string } {
  const lines = [
    input.clientName ? `Hello ${input.clientName},` : 'Hello,',
    '',
    `${input.fromName} has invited you to fill in "${input.templateName}".`,
    '',
    `Open your form: ${portalLink(input.publicUrl, input.token)}`,
  ];
  const due = input.dueOn ?? input.dueDate;
  if (due) lines.push(`Please complete it by ${due}.`);
  if (input.pinRequired) lines.push(`The form asks for the PIN that ${input.fromName} gave you.`);
  lines.push('', 'This link is personal: please do not forward this email.');
  return {
    subject: `${input.fromName} invited you to fill in ${input.templateName}`,
    text: lines.join('\n'),
  };
}
