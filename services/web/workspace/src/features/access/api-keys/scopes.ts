/**
 * The permissions of an API key as the spec's key form names them (client-onboarding-api.md,
 * Authentication). templates:write grants nothing and is not offered.
 */
export const OFFERED_SCOPES = [
  'clients:read',
  'clients:write',
  'onboardings:read',
  'onboardings:write',
  'templates:read',
  'responses:read',
  'events:read',
  'webhooks:write',
] as const;
export type OfferedScope = (typeof OFFERED_SCOPES)[number];

export const SCOPE_LABELS: Readonly<Record<OfferedScope, string>> = {
  'clients:read': 'Read clients',
  'clients:write': 'Create clients',
  'onboardings:read': 'Read forms',
  'onboardings:write': 'Create and update forms',
  'templates:read': 'Read templates',
  'responses:read': 'Read responses',
  'events:read': 'Read events',
  'webhooks:write': 'Manage webhook subscriptions',
};

/** The label of a scope; an unknown scope (an older key's) shows as it is. */
export function scopeLabel(scope: string): string {
  return (SCOPE_LABELS as Record<string, string>)[scope] ?? scope;
}

/** A key's permissions as one line, in the form's order. */
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
