/** The workspace's screens and the paths that show them (client-side routes under /workspace). */
export type Route =
  | { screen: 'home' }
  | { screen: 'sign-in' }
  | { screen: 'sign-up' }
  | { screen: 'forgot-password' }
  | { screen: 'reset-password'; token: string }
  | { screen: 'invitation'; token: string }
  | { screen: 'verify-email'; token: string }
  | { screen: 'members' }
  | { screen: 'integrations' }
  | { screen: 'webhooks' }
  | { screen: 'activity' }
  | { screen: 'automations' }
  /** payments: back from Stripe's onboarding of the team's account (its return or refresh page). */
  | { screen: 'settings'; payments?: 'return' | 'refresh' }
  | { screen: 'account' }
  | { screen: 'onboardings' }
  | { screen: 'onboarding'; id: string }
  | { screen: 'clients' }
  | { screen: 'client'; id: string }
  | { screen: 'templates' }
  | { screen: 'template'; id: string }
  | { screen: 'not-found' };

const SIMPLE = [
  'home',
  'sign-in',
  'sign-up',
  'forgot-password',
  'members',
  'integrations',
  'webhooks',
  'activity',
  'automations',
  'settings',
  'account',
  'onboardings',
  'clients',
  'templates',
] as const;

/** Screens of one record: /workspace/<list>/<id>. */
const RECORDS = { onboardings: 'onboarding', clients: 'client', templates: 'template' } as const;

/** Pure: the route of a path (/, /workspace and /workspace/home are home). */
export function routeOf(pathname: string): Route {
  // A query or fragment (sign-in's ?next=, a list's filters) does not change the screen.
  const path = pathname.replace(/[?#].*$/, '').replace(/\/+$/, '');
  if (path === '' || path === '/workspace') return { screen: 'home' };
  const parts = path.split('/').slice(1);
  if (parts[0] !== 'workspace') return { screen: 'not-found' };
  const [, first, second, ...rest] = parts;
  const stripeBack = /^\/workspace\/settings\/payments\/(return|refresh)$/.exec(path);
  if (stripeBack) return { screen: 'settings', payments: stripeBack[1] as 'return' | 'refresh' };
  if (rest.length > 0) return { screen: 'not-found' };
  if (second === undefined && (SIMPLE as readonly string[]).includes(first ?? '')) {
    return { screen: first as (typeof SIMPLE)[number] };
  }
  if (second && first === 'reset-password')
    return { screen: 'reset-password', token: decodeURIComponent(second) };
  if (second && first === 'invitations') return { screen: 'invitation', token: decodeURIComponent(second) };
  if (second && first === 'verify-email')
    return { screen: 'verify-email', token: decodeURIComponent(second) };
  if (second && first && first in RECORDS) {
    return { screen: RECORDS[first as keyof typeof RECORDS], id: decodeURIComponent(second) };
  }
  return { screen: 'not-found' };
}

/** Pure: the path of a screen. */
export function pathOf(route: Route): string {
  switch (route.screen) {
    case 'home':
    case 'not-found':
      return '/workspace';
    case 'reset-password':
      return `/workspace/reset-password/${encodeURIComponent(route.token)}`;
    case 'invitation':
      return `/workspace/invitations/${encodeURIComponent(route.token)}`;
    case 'verify-email':
      return `/workspace/verify-email/${encodeURIComponent(route.token)}`;
    case 'settings':
      return route.payments ? `/workspace/settings/payments/${route.payments}` : '/workspace/settings';
    case 'onboarding':
    case 'client':
    case 'template':
      return `/workspace/${route.screen}s/${encodeURIComponent(route.id)}`;
    default:
      return `/workspace/${route.screen}`;
  }
}

/** Screens a visitor without a session may see. */
export function isPublic(route: Route): boolean {
  return ['sign-in', 'sign-up', 'forgot-password', 'reset-password', 'invitation', 'verify-email'].includes(
    route.screen,
  );
}

/** The sign-in screen's query parameter naming the page to return to. */
const NEXT = 'next';
/** Stands for this origin while a path is checked: only a path under it is ours. */
const SAME = 'https://workspace.invalid';

/**
 * Pure: `requested` as a page to return to after sign-in, or null. Only a path of this
 * origin under /workspace/ that shows a team screen qualifies: never another origin
 * (`//evil.example`, `https:`, a backslash), never a public or unknown screen, so the
 * parameter cannot become an open redirect.
 */
export function returnPath(requested: string | null | undefined): string | null {
  if (!requested || !requested.startsWith('/workspace/') || /[\\\s]/.test(requested)) return null;
  let url: URL;
  try {
    url = new URL(requested, SAME);
  } catch {
    return null;
  }
  if (url.origin !== SAME || requested.startsWith('//')) return null;
  const route = routeOf(url.pathname);
  if (route.screen === 'not-found' || route.screen === 'home' || isPublic(route)) return null;
  return `${url.pathname}${url.search}`;
}

/** Pure: the sign-in page that returns to `requested` (plain sign-in when it may not). */
export function signInPath(requested: string): string {
  const back = returnPath(requested);
  return back ? `/workspace/sign-in?${NEXT}=${encodeURIComponent(back)}` : '/workspace/sign-in';
}

/** Pure: where sign-in leads, from the sign-in page's query: the page asked for, else Home. */
export function afterSignIn(search: string): string {
  return returnPath(new URLSearchParams(search).get(NEXT)) ?? pathOf({ screen: 'home' });
}
