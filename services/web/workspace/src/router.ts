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

/** Pure: the route of a path (/ and /workspace are home). */
export function routeOf(pathname: string): Route {
  const path = pathname.replace(/\/+$/, '');
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
