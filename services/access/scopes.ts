/**
 * API key scopes (client-onboarding-api.md, Authentication). `templates:write` is
 * accepted on a key but no endpoint asks for it, so it grants nothing.
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
