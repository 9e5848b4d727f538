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
  /** Written before its event exists (EventStoreDB): `held` until releaseHeldMail, never sent before. */
  held?: boolean;
}

/** Queues one mail in the outbox, inside the caller's transaction; the mailer sends it. */
export async function queueMail(tx: Pick<PoolClient, 'query'>, mail: QueuedMail): Promise<void> {
  await tx.query(
    `insert into mail_outbox (id, team_id, kind, "to", from_name, subject, text, onboarding_id, event_id, created_at, status)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
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
      mail.held ? 'held' : 'queued',
    ],
  );
}

/**
 * Queues the mail held back until its event exists (EventStoreDB: the mail is written
 * before the append). Idempotent: a second call, or one for events without held mail,
 * changes nothing.
 */
export async function releaseHeldMail(tx: Pick<PoolClient, 'query'>, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await tx.query(
    `update mail_outbox set status = 'queued' where event_id = any($1::uuid[]) and status = 'held'`,
    [eventIds],
  );
}

/** Drops the mail held for events that never landed: it was never sent and never will be. */
export async function dropHeldMail(tx: Pick<PoolClient, 'query'>, eventIds: string[]): Promise<void> {
  await tx.query(`delete from mail_outbox where event_id = any($1::uuid[]) and status = 'held'`, [eventIds]);
}
