import { storedValue } from '../../shared/privacy/sealed-columns.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import type { PersonalDataVault, SealedValue } from '../../shared/privacy/personal-data-vault.ts';
import { hashClientToken } from './link-secrets.ts';

/**
 * Where the clear client token of a link is found. Tokens are stored hashed only (events,
 * onboarding_links); the one place the token exists is the invite email of the send that
 * issued it, in mail_outbox (the email must carry the link): in its text while it is
 * queued, and sealed with the client's personal data key (link_token) once it was sent,
 * when the text keeps only a reference (services/mail/sent-mail.ts). The operator's
 * GET /admin/v1/onboardings/:id/link and the reminder emails read it from there, and keep
 * it only when its SHA-256 is the onboarding's active token hash. A draft's creation token
 * is in no email: the create answer is the only place it is shown (the operator route
 * answers null for a draft).
 */

/** The token in a link of an email: the page's `/f/<token>` or the portal API's own path. */
const LINK_TOKEN = /\/(?:f|portal\/v1\/onboardings)\/([0-9a-f]{64})/g;

/** How many of the newest invites of an onboarding are searched for its active token. */
const INVITES_SEARCHED = 20;

/** Every client token in the links of `text`, in order. */
export const linkTokens = (text: string): string[] =>
  [...text.matchAll(LINK_TOKEN)].map((match) => match[1]!);

type Queryable = Pick<PoolClient, 'query'>;

/** The clear token whose hash is `tokenHash`, from the onboarding's invite emails; undefined when none holds it. */
export async function clearTokenFromInvites(
  db: Queryable,
  vault: Pick<PersonalDataVault, 'open'>,
  onboardingId: string,
  tokenHash: string,
): Promise<string | undefined> {
  const { rows } = await db.query<{ text: string; link_token: SealedValue | null }>(
    `select text, link_token from mail_outbox where onboarding_id = $1 and kind = 'invite'
     order by created_at desc, seq desc limit $2`,
    [onboardingId, INVITES_SEARCHED],
  );
  for (const row of rows) {
    const sealed = row.link_token ? await vault.open(row.link_token) : null;
    // The text is sealed with the client's key (sealed-columns.ts); an erased one reads null.
    const text = await vault.open(storedValue(row.text));
    for (const token of [...linkTokens(text ?? ''), ...(sealed ? [sealed] : [])]) {
      if (hashClientToken(token) === tokenHash) return token;
    }
  }
  return undefined;
}
