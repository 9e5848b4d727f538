import type { ReadClient } from '../../projections/read-client.ts';

/** account: the workspace's invitation and password-reset emails (their links are read here without SMTP). */
export const EMAIL_KINDS = ['invite', 'reminder', 'automation', 'notification', 'account'] as const;
export const EMAIL_STATUSES = ['queued', 'sent', 'failed'] as const;

export interface OutboxEmailRow {
  id: string;
  kind: (typeof EMAIL_KINDS)[number];
  to: string;
  from_name: string;
  subject: string;
  text: string;
  onboarding_id: string | null;
  created_at: Date;
  status: (typeof EMAIL_STATUSES)[number];
}

/**
 * The team's emails from the outbox (mail_outbox, held ones aside), newest first:
 * created_at by the service clock, then the order they were queued. Mails about a client
 * are sealed with its key (shared/privacy/sealed-columns.ts); the caller opens them.
 */
export async function teamEmails(db: ReadClient, teamId: string, limit: number): Promise<OutboxEmailRow[]> {
  const { rows } = await db.query<OutboxEmailRow>(
    `select id, kind, "to", from_name, subject, text, onboarding_id, created_at, status
     from mail_outbox where team_id = $1 and status <> 'held'
     order by created_at desc, seq desc
     limit $2`,
    [teamId, limit],
  );
  return rows;
}
