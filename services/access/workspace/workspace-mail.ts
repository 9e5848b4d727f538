import type { Logger } from '../../../shared/logging/logger.ts';
import type { PoolClient } from '../../../shared/db/pool.ts';
import { queueMail } from '../../../shared/mail/outbox.ts';

/**
 * An account email (password reset, invitation) queued in the outbox inside the command's
 * transaction. With SMTP_URL its link is never logged. Without SMTP_URL (a local setup that
 * sends no email) nothing is sent, so the link is also written to the log at info level for
 * the local user to finish the flow, beside where the email is kept: the one secret the
 * service logs on purpose, and only where no email can carry it (docs/decisions/0022-logs.md).
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
  mail: { teamId: string; link: string },
): void {
  if (smtpUrl) return;
  logger.info(
    { teamId: mail.teamId, link: mail.link, outbox: `GET /admin/v1/teams/${mail.teamId}/emails` },
    `${what} queued (no SMTP_URL: nothing is sent; open this link to continue)`,
  );
}
