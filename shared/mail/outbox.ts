import { randomUUID } from 'node:crypto';
import type { PoolClient } from '../db/pool.ts';
import { sealTextsIn } from '../privacy/sealed-columns.ts';

export interface QueuedMail {
  teamId: string;
  /** account: workspace sign-in mails (password reset, member invitation). */
  kind: 'invite' | 'reminder' | 'automation' | 'notification' | 'account';
  to: string;
  fromName: string;
  subject: string;
  text: string;
  /** The HTML part, when the mail has one (client emails); sealed and kept like `text`. */
  html?: string | null;
  onboardingId: string | null;
  /** The event that caused the mail (an invite's onboarding.sent): at most one mail per event. */
  eventId?: string | null;
  at: Date;
  /**
   * The client the mail is about: "to", subject, text and html are then sealed with that client's
   * key (shared/privacy/sealed-columns.ts). Workspace account mails have none.
   */
  clientId?: string | null;
  /** Written before its event exists (EventStoreDB): `held` until releaseHeldMail, never sent before. */
  held?: boolean;
}

/** Queues one mail in the outbox, inside the caller's transaction (sealed when about a client); the mailer sends it. */
export async function queueMail(tx: Pick<PoolClient, 'query'>, mail: QueuedMail): Promise<void> {
  const html = mail.html ?? null;
  const plain = html === null ? [mail.to, mail.subject, mail.text] : [mail.to, mail.subject, mail.text, html];
  const sealed = mail.clientId ? await sealTextsIn(tx, mail.clientId, plain) : plain;
  // The client's key is gone: its caller read the client as erased. A notification to a team
  // member (its client placeholders empty) is still written, plain; mail to the client is not
  // (a client email listed as a notification, changes requested or completed, has an html part).
  if (!sealed && (mail.kind !== 'notification' || html !== null)) return;
  const clientId = sealed && mail.clientId ? mail.clientId : null;
  const [to, subject, text, sealedHtml] = sealed ?? plain;
  await tx.query(
    `insert into mail_outbox (id, team_id, kind, "to", from_name, subject, text, onboarding_id, event_id, created_at, status, client_id, html)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      randomUUID(),
      mail.teamId,
      mail.kind,
      to,
      mail.fromName,
      subject,
      text,
      mail.onboardingId,
      mail.eventId ?? null,
      mail.at,
      mail.held ? 'held' : 'queued',
      clientId,
      sealedHtml ?? null,
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
