import type { Onboarding } from './onboarding-decider.ts';

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
