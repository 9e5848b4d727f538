import type { Logger } from '../../../shared/logging/logger.ts';
import type { PoolClient } from '../../../shared/db/pool.ts';
import { queueMail } from '../../../shared/mail/outbox.ts';

/**
 * An account email (password reset, invitation) queued in the outbox inside the command's
 * transaction. Without SMTP_URL nothing is sent, so the link is also written to the log at
 * info level for a local user to finish the flow: the one secret the service logs on
 * purpose (README, workspace notes). With SMTP_URL it is not logged.
 */
export async function queueAccountMail(
  tx: Pick<PoolClient, 'query'>,
  mail: { teamId: string; to: string; subject: string; text: string; at: Date },
): Promise<void> {
  await queueMail(tx, { ...mail, kind: 'account', fromName: 'Client onboarding', onboardingId: null });
}

export function logLinkWithoutSmtp(
  logger: Pick<Logger, 'info'>,
  smtpUrl: string | undefined,
  what: string,
  link: string,
): void {
  if (smtpUrl) return;
  logger.info({ link }, `${what} (no SMTP_URL: the email stays in the outbox; open this link to continue)`);
}
