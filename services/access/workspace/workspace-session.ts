import type { FastifyReply, FastifyRequest } from 'fastify';
import { signedIn as signedInMember, type SignedInMember } from '../../../shared/http/workspace-request.ts';
import type { PoolClient } from '../../../shared/db/pool.ts';
import type { MemberRole } from '../contract/roles.ts';
import { SIGNED_IN_HINT_COOKIE } from '../contract/signed-in-hint.ts';
import { SESSION_LIFETIME_SECONDS, sessionLive } from './session-policy.ts';
import { hashSecret, newSecret } from './workspace-secrets.ts';

export const SESSION_COOKIE = 'ws_session';

/** The signed-in member of a request, with the role the access feature knows. */
export interface WorkspaceSession extends SignedInMember {
  role: MemberRole;
}

type Db = Pick<PoolClient, 'query'>;

/** A new session's row, inside the caller's transaction; returns the cookie's id and the CSRF token. */
export async function insertSession(
  tx: Db,
  { memberId, teamId, now }: { memberId: string; teamId: string; now: Date },
): Promise<{ id: string; csrfToken: string }> {
  const id = newSecret();
  const csrfToken = csrfTokenOf(id);
  await tx.query(
    `insert into workspace_sessions (id_hash, member_id, team_id, csrf_token_hash, created_at, last_seen_at)
     values ($1, $2, $3, $4, $5, $5)`,
    [hashSecret(id), memberId, teamId, hashSecret(csrfToken), now],
  );
  return { id, csrfToken };
}

/**
 * The synchronizer token of a session: derived from its secret id, so GET /me can answer
 * the same token on every page load; stored only as its hash. A page of another site can
 * read neither the cookie nor the token.
 */
export const csrfTokenOf = (id: string): string => hashSecret(`csrf:${id}`);

/**
 * The live session of cookie id `id`, touched (its idle time restarts); an ended one is
 * deleted. Only a current member's session is found: a removed member's sessions are
 * deleted with the removal, and the join refuses any left over.
 */
export async function findSession(db: Db, id: string, now: Date): Promise<WorkspaceSession | undefined> {
  const idHash = hashSecret(id);
  const { rows } = await db.query<WorkspaceSession>(
    `select s.id_hash as "idHash", s.csrf_token_hash as "csrfTokenHash", s.member_id as "memberId",
            s.team_id as "teamId", m.role, m.name, m.email, s.created_at, s.last_seen_at, s.reauthenticated_at
     from workspace_sessions s
     join team_members m on m.id = s.member_id and m.team_id = s.team_id and m.removed_at is null
     where s.id_hash = $1`,
    [idHash],
  );
  const session = rows[0];
  if (!session) return undefined;
  if (!sessionLive(session, now)) {
    await db.query('delete from workspace_sessions where id_hash = $1', [idHash]);
    return undefined;
  }
  await db.query('update workspace_sessions set last_seen_at = $2 where id_hash = $1', [idHash, now]);
  return { ...session, csrfToken: csrfTokenOf(id), last_seen_at: now };
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.query('delete from workspace_sessions where id_hash = $1', [idHash]);
}

export async function deleteMemberSessions(db: Db, memberId: string): Promise<void> {
  await db.query('delete from workspace_sessions where member_id = $1', [memberId]);
}

/** Ends every session of the member but `keepIdHash` (two-factor turned on, password changed). */
export async function deleteOtherSessions(db: Db, memberId: string, keepIdHash: string): Promise<void> {
  await db.query('delete from workspace_sessions where member_id = $1 and id_hash <> $2', [
    memberId,
    keepIdHash,
  ]);
}

/** Secure when the request came over HTTPS or the service's public URL is https. */
function secureCookie(request: FastifyRequest, publicUrl: string): boolean {
  return request.protocol === 'https' || publicUrl.startsWith('https:');
}

export function setSessionCookie(
  reply: FastifyReply,
  request: FastifyRequest,
  publicUrl: string,
  id: string,
): void {
  const secure = secureCookie(request, publicUrl);
  const cookie = { sameSite: 'strict', secure, path: '/', maxAge: SESSION_LIFETIME_SECONDS } as const;
  // The session first: clients that keep only the first Set-Cookie keep the session.
  reply.setCookie(SESSION_COOKIE, id, { ...cookie, httpOnly: true });
  reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', { ...cookie, httpOnly: false });
}

export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest, publicUrl: string): void {
  const cookie = { sameSite: 'strict', secure: secureCookie(request, publicUrl), path: '/' } as const;
  reply.clearCookie(SESSION_COOKIE, { ...cookie, httpOnly: true });
  reply.clearCookie(SIGNED_IN_HINT_COOKIE, { ...cookie, httpOnly: false });
}

/**
 * The signed-in member of a route that requires a session (the API's onRequest hook ensured
 * it), with its role: the hook sets only sessions found by `findSession`.
 */
export function signedIn(request: FastifyRequest): WorkspaceSession {
  return signedInMember(request) as WorkspaceSession;
}
