/**
 * A cookie the workspace's page can read, beside the session cookie it cannot (HttpOnly):
 * `ws_signed_in=1` while a session cookie was set in this browser. It holds nothing secret
 * and grants nothing; it only spares a signed-out visitor's page the GET /me that would
 * answer 401 (a failed request in the browser's console on every sign-in page). A page that
 * finds it still asks GET /me, which decides; a 401 there removes it.
 * docs/decisions/0101-first-screens-within-40-kb.md.
 */
export const SIGNED_IN_HINT_COOKIE = 'ws_signed_in';
