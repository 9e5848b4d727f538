import type { PoolClient } from '../../shared/db/pool.ts';
import { queueMail } from '../../shared/mail/outbox.ts';
import type { Onboarding } from './decider/index.ts';
import { composeClientEmail } from './client-emails/compose.ts';
import { OUTBOX_KIND, type ClientEmailExtras, type ClientEmailKind } from './client-emails/kinds.ts';

export { CLIENT_EMAIL_KINDS, type ClientEmailKind, type SentBackAnswer } from './client-emails/kinds.ts';

/**
 * What the emails to a client about its onboarding (the invite, the reminders; plain text,
 * queued in mail_outbox) have in common: the greeting, the form's due date, a line when
 * the form asks for a PIN (never the PIN itself: the team gives it to the client by
 * another way) and the closing. Each email writes its own lines in between.
 */
export interface ClientEmailInput {
  publicUrl: string;
  fromName: string;
  clientName: string | null;
  templateName: string;
  dueDate: string | null;
  dueOn: string | null;
  pinRequired: boolean;
}

/** The onboarding's part of an email's input, as the onboarding is now. */
export const onboardingEmailFacts = (
  onboarding: Onboarding,
): Pick<ClientEmailInput, 'templateName' | 'dueDate' | 'dueOn' | 'pinRequired'> => ({
  templateName: onboarding.snapshot.name,
  dueDate: onboarding.due?.due_date ?? null,
  dueOn: onboarding.due?.due_on ?? null,
  pinRequired: onboarding.pin !== null,
});

/** The email's text: the greeting, the email's own `message` lines, then the common lines. */
export function clientEmailText(input: ClientEmailInput, message: string[]): string {
  const lines = [input.clientName ? `Hello ${input.clientName},` : 'Hello,', '', ...message];
  const due = input.dueOn ?? input.dueDate;
  if (due) lines.push(`Please complete it by ${due}.`);
  if (input.pinRequired) lines.push(`The form asks for the PIN that ${input.fromName} gave you.`);
  lines.push('', 'This link is personal: please do not forward this email.');
  return lines.join('\n');
}

/**
 * Writes one of these emails (its `kind`, services/onboardings/client-emails/kinds.ts) for
 * the onboarding as it is now and queues it in the outbox inside the command's transaction.
 * The sender is the team's email sender name, else the team's name.
 */
export async function queueClientEmail<K extends ClientEmailKind>(
  tx: Pick<PoolClient, 'query'>,
  mail: {
    kind: K;
    extra: ClientEmailExtras[K];
    publicUrl: string;
    team: { id: string; name: string; email_sender_name: string | null };
    recipient: { name: string | null; email: string };
    onboarding: Onboarding;
    eventId?: string | null;
    at: Date;
    /** Held until its event exists (shared/mail/outbox.ts). */
    held?: boolean;
  },
): Promise<void> {
  const fromName = mail.team.email_sender_name ?? mail.team.name;
  const email = composeClientEmail(mail.kind, {
    publicUrl: mail.publicUrl,
    fromName,
    clientName: mail.recipient.name,
    ...onboardingEmailFacts(mail.onboarding),
    ...mail.extra,
  });
  await queueMail(tx, {
    teamId: mail.team.id,
    kind: OUTBOX_KIND[mail.kind],
    to: mail.recipient.email,
    fromName,
    subject: email.subject,
    text: email.text,
    onboardingId: mail.onboarding.id,
    clientId: mail.onboarding.client_id,
    eventId: mail.eventId ?? null,
    at: mail.at,
    held: mail.held,
  });
}
