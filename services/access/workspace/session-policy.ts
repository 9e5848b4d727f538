/**
 * How long a workspace session lasts, pure: it ends 12 hours after its last request (idle
 * timeout) and 7 days after sign-in whatever happens (absolute lifetime). Re-authentication
 * counts for 5 minutes.
 */
export const SESSION_IDLE_SECONDS = 12 * 60 * 60;
export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
export const REAUTH_SECONDS = 5 * 60;

export interface SessionTimes {
  created_at: Date;
  last_seen_at: Date;
  reauthenticated_at: Date | null;
}

export function sessionLive(session: SessionTimes, now: Date): boolean {
  const at = now.getTime();
  return (
    at - session.last_seen_at.getTime() <= SESSION_IDLE_SECONDS * 1000 &&
    at - session.created_at.getTime() <= SESSION_LIFETIME_SECONDS * 1000
  );
}

export function recentlyReauthenticated(session: SessionTimes, now: Date): boolean {
  return (
    session.reauthenticated_at !== null &&
    now.getTime() - session.reauthenticated_at.getTime() <= REAUTH_SECONDS * 1000
  );
}
