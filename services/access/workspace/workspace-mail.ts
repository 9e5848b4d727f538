import type { Logger } from '../../../shared/logging/logger.ts';
import type { PoolClient } from '../../../shared/db/pool.ts';
import { queueMail } from '../../../shared/mail/outbox.ts';

/**
 * An account email (password reset, invitation) queued in the outbox inside the command's
 * transaction. Its link is a secret, so it is never logged: without SMTP_URL nothing is
 * sent, and the log says where a local user reads the email instead (the operator's
 * GET /admin/v1/teams/:team_id/emails, or the mail_outbox table).
 */
export async function queueAccountMail(
  tx: Pick<PoolClient, 'query'>,
  mail: { teamId: string; to: string; subject: string; text: string; at: Date },
): Promise<void> {
  await queueMail(tx, { ...mail, kind: 'account', fromName: 'Client onboarding', onboardingId: null });
}

export function logMailWithoutSmtp(
  logger: Pick<Logger, 'info'>,
  smtpUrl: string | undefined,
  what: string,
  teamId: string,
): void {
  if (smtpUrl) return;
  logger.info(
    { teamId, outbox: `GET /admin/v1/teams/${teamId}/emails` },
    `${what} queued (no SMTP_URL: nothing is sent; read the email and its link in the outbox)`,
  );
}
