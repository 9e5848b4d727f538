/**
 * The emails a client receives about its onboarding, and what each one needs beyond the
 * facts every client email shares (services/onboardings/client-email.ts). One list, so
 * every kind is rendered in every locale (the render test walks this list).
 *
 *   invite             a send: the new link
 *   reopened           a reopen: the new link and why the team reopened it
 *   reminder           a scheduled reminder, or "Send a reminder now" with the member's message
 *   changes_requested  answers sent back: each answer's label, the decision and its reason,
 *                      and a link that opens the form at the first of them
 *   completed          the confirmation: a copy of what was sent (the signed PDF) is on the link
 */
export const CLIENT_EMAIL_KINDS = [
  'invite',
  'reopened',
  'reminder',
  'changes_requested',
  'completed',
] as const;
export type ClientEmailKind = (typeof CLIENT_EMAIL_KINDS)[number];

export interface SentBackAnswer {
  label: string;
  decision: 'rejected' | 'changes_requested';
  reason: string;
}

export interface ClientEmailExtras {
  invite: { token: string };
  reopened: { token: string; reason: string | null };
  /** The active token when known (else the client is pointed to the invite); `message`: the member's own words. */
  reminder: { token: string | undefined; message?: string | null };
  /** `fieldId`: the first answer sent back; the link opens the form there. */
  changes_requested: { token: string | undefined; answers: SentBackAnswer[]; fieldId: string };
  /** `steps`: the copy of what was sent, already in the client's words and dates (services/onboardings/submission-copy.ts). */
  completed: { token: string | undefined; steps: CopiedStep[] };
}

/** One step of the copy of a submission: its title and each answer as text. */
export interface CopiedStep {
  title: string;
  answers: { label: string; text: string }[];
}

/** The outbox kind an email is listed under (the operator's emails API knows four kinds). */
export const OUTBOX_KIND: Readonly<Record<ClientEmailKind, 'invite' | 'reminder' | 'notification'>> = {
  invite: 'invite',
  reopened: 'invite',
  reminder: 'reminder',
  changes_requested: 'notification',
  completed: 'notification',
};
