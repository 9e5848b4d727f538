/**
 * API key scopes (client-onboarding-api.md, Authentication) and their labels, as the key
 * form and the API's `scope_labels` name them. `templates:write` is accepted on a key but
 * no endpoint asks for it, so it grants nothing and is not offered. Pure: the service and the
 * workspace's key form share this file.
 */
export const SCOPES = [
  'clients:read',
  'clients:write',
  'onboardings:read',
  'onboardings:write',
  'templates:read',
  'templates:write',
  'responses:read',
  'events:read',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];

/** Scopes a route may require; every one but templates:write. */
export type RouteScope = Exclude<Scope, 'templates:write'>;

/** The label of each scope a key may be given, in the key form's order. */
export const SCOPE_LABELS: Readonly<Record<RouteScope, string>> = {
  'clients:read': 'Read clients',
  'clients:write': 'Create clients',
  'onboardings:read': 'Read forms',
  'onboardings:write': 'Create and update forms',
  'templates:read': 'Read templates',
  'responses:read': 'Read responses',
  'events:read': 'Read events',
  'webhooks:write': 'Manage webhook subscriptions',
};

/** The scopes a new key may be given (every one but templates:write), in the form's order. */
export const OFFERED_SCOPES = Object.keys(SCOPE_LABELS) as [RouteScope, ...RouteScope[]];

/** The label of a scope; one without a label (templates:write, an older key's) shows as it is. */
export function scopeLabel(scope: string): string {
  return (SCOPE_LABELS as Readonly<Record<string, string>>)[scope] ?? scope;
}

/** A key's scopes as one line of labels, in the form's order. */
export function scopeList(scopes: readonly string[]): string {
  const order = (scope: string) => {
    const index = (OFFERED_SCOPES as readonly string[]).indexOf(scope);
    return index === -1 ? OFFERED_SCOPES.length : index;
  };
  return [...scopes]
    .sort((a, b) => order(a) - order(b))
    .map(scopeLabel)
    .join(', ');
}
