import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from '../../../shared/db/pool.ts';

/**
 * Link sessions of the client portal (docs/decisions/0004-portal-link-sessions.md): a
 * correct PIN sent to POST /portal/v1/onboardings/:token/session opens one, so the client's
 * form checks the PIN once per visit; requests that carry a live session skip the PIN
 * check (no scrypt, no PIN counters). X-Onboarding-Pin keeps working on every route.
 *
 * - The cookie's value is 32 random bytes (64 hex); the table keeps only its SHA-256, with
 *   the link's token hash and the salt of the PIN it was opened with, so a new link (a
 *   resend) or a new PIN ends every session of the old one.
 * - It ends LINK_SESSION_IDLE_SECONDS after its last request (sliding) and
 *   LINK_SESSION_LIFETIME_SECONDS after it was opened, whichever comes first.
 * - Cookie: HttpOnly, SameSite=Strict, Secure when the service is reached over https (as
 *   the workspace session cookie decides), Path=/portal/v1/onboardings/ (only the portal's
 *   link routes get it; the token itself stays out of the cookie), named after a hash of the
 *   link's token hash so sessions of several links in one browser stay apart.
 */
export const LINK_SESSION_IDLE_SECONDS = 30 * 60;
export const LINK_SESSION_LIFETIME_SECONDS = 8 * 60 * 60;
export const LINK_SESSION_COOKIE_PATH = '/portal/v1/onboardings/';
/** A session is touched (its idle time restarts) at most once a minute. */
const TOUCH_AFTER_SECONDS = 60;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The cookie of the link with token hash `tokenHash`. */
export const linkSessionCookieName = (tokenHash: string): string =>
  `portal_link_${sha256(`portal-link-session:${tokenHash}`).slice(0, 20)}`;

type Db = Pick<Pool, 'query'>;

/** A new session of the link; answers the cookie's value (the only copy of the id) and its end. */
export async function openLinkSession(
  db: Db,
  { tokenHash, pinSalt, now }: { tokenHash: string; pinSalt: string; now: Date },
): Promise<{ id: string; expiresAt: Date }> {
  const id = randomBytes(32).toString('hex');
  // Ended sessions of any link go first: the table holds only live ones (and a few ending).
  await db.query(
    `delete from portal_link_sessions
      where last_seen_at < $1::timestamptz - make_interval(secs => $2)
         or created_at < $1::timestamptz - make_interval(secs => $3)`,
    [now, LINK_SESSION_IDLE_SECONDS, LINK_SESSION_LIFETIME_SECONDS],
  );
  await db.query(
    `insert into portal_link_sessions (id_hash, token_hash, pin_salt, created_at, last_seen_at)
     values ($1, $2, $3, $4, $4)`,
    [sha256(id), tokenHash, pinSalt, now],
  );
  return { id, expiresAt: new Date(now.getTime() + LINK_SESSION_LIFETIME_SECONDS * 1000) };
}

/**
 * Whether `id` is a live session of the link `tokenHash` opened with the PIN of salt
 * `pinSalt`; a live one is touched when its last request is over a minute old.
 */
export async function linkSessionLive(
  db: Db,
  { id, tokenHash, pinSalt, now }: { id: string; tokenHash: string; pinSalt: string; now: Date },
): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(id)) return false;
  const { rows } = await db.query<{ live: number }>(
    `with found as (
       select id_hash, last_seen_at from portal_link_sessions
        where id_hash = $1 and token_hash = $2 and pin_salt = $3
          and last_seen_at > $4::timestamptz - make_interval(secs => $5)
          and created_at > $4::timestamptz - make_interval(secs => $6)
     ), touched as (
       update portal_link_sessions s set last_seen_at = $4 from found
        where s.id_hash = found.id_hash
          and found.last_seen_at < $4::timestamptz - make_interval(secs => $7)
     )
     select count(*)::int as live from found`,
    [
      sha256(id),
      tokenHash,
      pinSalt,
      now,
      LINK_SESSION_IDLE_SECONDS,
      LINK_SESSION_LIFETIME_SECONDS,
      TOUCH_AFTER_SECONDS,
    ],
  );
  return (rows[0]?.live ?? 0) > 0;
}

/** The session id the request carries for the link `tokenHash`, if any. */
export function linkSessionId(request: FastifyRequest, tokenHash: string): string | undefined {
  const cookies = (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies;
  return cookies?.[linkSessionCookieName(tokenHash)];
}

/** Secure when the request came over HTTPS or the service's public URL is https (as the workspace cookie). */
function secureCookie(request: FastifyRequest, publicUrl: string): boolean {
  return request.protocol === 'https' || publicUrl.startsWith('https:');
}

/** Sets the session's cookie; the answer is never stored by a cache (Cache-Control: no-store). */
export function setLinkSessionCookie(
  reply: FastifyReply,
  request: FastifyRequest,
  { tokenHash, id, publicUrl }: { tokenHash: string; id: string; publicUrl: string },
): void {
  reply.setCookie(linkSessionCookieName(tokenHash), id, {
    httpOnly: true,
    sameSite: 'strict',
    secure: secureCookie(request, publicUrl),
    path: LINK_SESSION_COOKIE_PATH,
    maxAge: LINK_SESSION_LIFETIME_SECONDS,
  });
  reply.header('Cache-Control', 'no-store');
}
