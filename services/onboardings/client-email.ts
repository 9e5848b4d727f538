import type { PoolClient } from '../../shared/db/pool.ts';
import { queueMail } from '../../shared/mail/outbox.ts';
import { logoUrl } from '../access/index.ts';
import type { Onboarding } from './decider/index.ts';
import { emailLocale } from './client-emails/catalog.ts';
import { composeClientEmail } from './client-emails/compose.ts';
import { onboardingEmailFacts, type EmailBrand } from './client-emails/email-input.ts';
import { OUTBOX_KIND, type ClientEmailExtras, type ClientEmailKind } from './client-emails/kinds.ts';

export { CLIENT_EMAIL_KINDS, type ClientEmailKind, type SentBackAnswer } from './client-emails/kinds.ts';
export { onboardingEmailFacts, type ClientEmailInput } from './client-emails/email-input.ts';

/**
 * The emails to a client about its onboarding (the invite, the reopen, the reminders, the
 * answers sent back, the confirmation) have in common: the team's branding (its sender
 * name, logo and accent colour), the client's language (the client's locale, else the
 * team's) and timezone, the greeting, the form's due date as people read it in that
 * language, a line when the form asks for a PIN (never the PIN itself: the team gives it
 * to the client by another way, as the PIN page says) and the footer. Each is written as
 * a plain-text part and an HTML part (./client-emails/).
 */

type Queryable = Pick<PoolClient, 'query'>;

/** What an email reads of the team and the client beyond what its caller passes. */
interface AudienceFacts {
  locale: string | null;
  timeZone: string | null;
  brand: EmailBrand;
}

async function audienceFacts(
  tx: Queryable,
  publicUrl: string,
  teamId: string,
  clientId: string,
): Promise<AudienceFacts> {
  const { rows } = await tx.query<{
    team_locale: string | null;
    team_timezone: string | null;
    accent_color: string | null;
    logo_sha256: string | null;
    client_locale: string | null;
    client_timezone: string | null;
  }>(
    `select t.locale as team_locale, t.timezone as team_timezone, t.accent_color, t.logo_sha256,
            c.locale as client_locale, c.timezone as client_timezone
     from teams t left join clients c on c.id = $2 and c.team_id = t.id
     where t.id = $1`,
    [teamId, clientId],
  );
  const row = rows[0];
  const logo = row ? logoUrl(teamId, row.logo_sha256) : null;
  return {
    locale: row?.client_locale || row?.team_locale || null,
    timeZone: row?.client_timezone || row?.team_timezone || null,
    brand: {
      logoUrl: logo ? `${publicUrl.replace(/\/$/, '')}${logo}` : null,
      accentColor: row?.accent_color ?? null,
    },
  };
}

/**
 * Writes one of these emails (its `kind`, services/onboardings/client-emails/kinds.ts) for
 * the onboarding as it is now and queues it in the outbox inside the command's transaction.
 * The sender is the team's email sender name, else the team's name; the language, timezone
 * and branding are read here, so callers pass only what the kind needs.
 */
export async function queueClientEmail<K extends ClientEmailKind>(
  tx: Queryable,
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
  const audience = await audienceFacts(tx, mail.publicUrl, mail.team.id, mail.onboarding.client_id);
  const email = composeClientEmail(mail.kind, {
    publicUrl: mail.publicUrl,
    fromName,
    clientName: mail.recipient.name,
    ...onboardingEmailFacts(mail.onboarding, emailLocale(audience.locale)),
    ...audience,
    ...mail.extra,
  });
  await queueMail(tx, {
    teamId: mail.team.id,
    kind: OUTBOX_KIND[mail.kind],
    to: mail.recipient.email,
    fromName,
    subject: email.subject,
    text: email.text,
    html: email.html,
    onboardingId: mail.onboarding.id,
    clientId: mail.onboarding.client_id,
    eventId: mail.eventId ?? null,
    at: mail.at,
    held: mail.held,
  });
}
