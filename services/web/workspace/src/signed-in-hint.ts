import { SIGNED_IN_HINT_COOKIE } from '../../../access/contract/signed-in-hint.ts';

/**
 * Whether this browser may hold a session: the service sets a readable hint cookie beside the
 * session's HttpOnly one (../../../access/contract/signed-in-hint.ts). Without it the page knows
 * the visitor is signed out and asks nothing; with it, GET /me decides.
 */
export function mayBeSignedIn(): boolean {
  return document.cookie.split(';').some((cookie) => cookie.trim() === `${SIGNED_IN_HINT_COOKIE}=1`);
}

/** Forgets the hint once GET /me said there is no session (it expired or ended elsewhere). */
export function forgetSignedIn(): void {
  document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict`;
}
