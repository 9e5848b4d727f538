import type { ReadClient } from '../../../projections/read-client.ts';

/**
 * The workspace accounts' own operational rows: credentials (member_credentials), sign-in
 * locks (sign_in_locks), single-use links (workspace_tokens) and the re-authentication mark
 * of a session (workspace_sessions). Each takes a pool or the connection of the command's
 * transaction; route files call these and hold no SQL.
 */

/** The end of the address's sign-in lock, or null when none is written. */
export async function signInLockedUntil(db: ReadClient, address: string): Promise<Date | null> {
  const { rows } = await db.query<{ locked_until: Date }>(
    'select locked_until from sign_in_locks where email = $1',
    [address],
  );
  return rows[0]?.locked_until ?? null;
}

/** Writes (or moves) the address's sign-in lock. */
export async function writeSignInLock(db: ReadClient, address: string, lockedUntil: Date): Promise<void> {
  await db.query(
    `insert into sign_in_locks (email, locked_until) values ($1, $2)
     on conflict (email) do update set locked_until = excluded.locked_until`,
    [address, lockedUntil],
  );
}

/** Ends the address's sign-in lock (a completed password reset). */
export async function deleteSignInLock(db: ReadClient, address: string): Promise<void> {
  await db.query('delete from sign_in_locks where email = $1', [address]);
}

/** Marks the session re-authenticated at `now`. */
export async function markReauthenticated(db: ReadClient, idHash: string, now: Date): Promise<void> {
  await db.query('update workspace_sessions set reauthenticated_at = $2 where id_hash = $1', [idHash, now]);
}

/** Whether the address has a workspace account (one account per email). */
export async function hasAccount(db: ReadClient, address: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from member_credentials where email = $1', [address]);
  return (rowCount ?? 0) > 0;
}

/** Deletes the member's credentials: their email is free again. */
export async function deleteCredentials(db: ReadClient, memberId: string): Promise<void> {
  await db.query('delete from member_credentials where member_id = $1', [memberId]);
}

/** Keeps the sealed secret of a two-factor setup until it is confirmed. */
export async function setPendingTotpSecret(db: ReadClient, memberId: string, sealed: string): Promise<void> {
  await db.query('update member_credentials set totp_pending_secret = $2 where member_id = $1', [
    memberId,
    sealed,
  ]);
}

/** The pending secret becomes the member's two-factor secret; `step` is spent. */
export async function enableTotp(db: ReadClient, memberId: string, step: number): Promise<void> {
  await db.query(
    `update member_credentials
     set totp_secret = totp_pending_secret, totp_pending_secret = null, totp_last_step = $2
     where member_id = $1`,
    [memberId, step],
  );
}

/** Forgets the member's two-factor secrets. */
export async function disableTotp(db: ReadClient, memberId: string): Promise<void> {
  await db.query(
    `update member_credentials set totp_secret = null, totp_pending_secret = null, totp_last_step = null
     where member_id = $1`,
    [memberId],
  );
}

/** The account of an unused, unexpired password reset link; undefined for any other. */
export async function resetLinkAccount(
  db: ReadClient,
  tokenHash: string,
  now: Date,
): Promise<{ member_id: string; email: string } | undefined> {
  const { rows } = await db.query<{ member_id: string; email: string }>(
    `select t.member_id, c.email from workspace_tokens t join member_credentials c on c.member_id = t.member_id
     where t.token_hash = $1 and t.purpose = 'password_reset' and t.used_at is null and t.expires_at > $2`,
    [tokenHash, now],
  );
  return rows[0];
}

/** Spends a single-use link; false when it was already used. */
export async function useToken(db: ReadClient, tokenHash: string, now: Date): Promise<boolean> {
  const used = await db.query(
    'update workspace_tokens set used_at = $2 where token_hash = $1 and used_at is null',
    [tokenHash, now],
  );
  return used.rowCount === 1;
}
