import { randomUUID } from 'node:crypto';
import type { PoolClient } from '../db/pool.ts';

export interface QueuedMail {
  teamId: string;
  /** account: workspace sign-in mails (password reset, member invitation). */
  kind: 'invite' | 'reminder' | 'automation' | 'notification' | 'account';
  to: string;
  fromName: string;
  subject: string;
  text: string;
  onboardingId: string | null;
  /** The event that caused the mail (an invite's onboarding.sent): at most one mail per event. */
  eventId?: string | null;
  at: Date;
}

/** Queues one mail in the outbox, inside the caller's transaction; the mailer sends it. */
export async function queueMail(tx: Pick<PoolClient, 'query'>, mail: QueuedMail): Promise<void> {
  await tx.query(
    `insert into mail_outbox (id, team_id, kind, "to", from_name, subject, text, onboarding_id, event_id, created_at, status)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'queued')`,
    [
      randomUUID(),
      mail.teamId,
      mail.kind,
      mail.to,
      mail.fromName,
      mail.subject,
      mail.text,
      mail.onboardingId,
      mail.eventId ?? null,
      mail.at,
    ],
  );
}
