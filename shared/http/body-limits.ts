import type { FastifyInstance } from 'fastify';

/*
 * The largest body each route reads (fastify's per-route bodyLimit; 413
 * payload_too_large above it, before the body is parsed), so that no request makes the
 * service parse and check more than its route needs:
 *
 *   /api/v1 (the public API)                          1 MiB (docs/decisions/0024-plans-and-limits.md)
 *   a route that names its own bodyLimit              that (templates: 512 KiB, template-limits.ts)
 *   a route of BODY_LIMIT_OVERRIDES below             its limit
 *   any other route (workspace, portal, operator)     64 KiB
 *
 * Portal file uploads (multipart/form-data) are not read as one body: they keep their own
 * cap, the file field's size (at most 10 MiB, services/app/apis/portal.ts).
 */

export const KIB = 1024;
export const MIB = 1024 * KIB;

/** The public API's body limit (docs/decisions/0024-plans-and-limits.md: "Largest accepted JSON body: 1 MiB"). */
export const PUBLIC_API_BODY_LIMIT = MIB;
/** Every other JSON route unless it names its own or is listed below. */
export const DEFAULT_BODY_LIMIT = 64 * KIB;

/** Routes that need more than DEFAULT_BODY_LIMIT, by method and route URL. */
export const BODY_LIMIT_OVERRIDES: Record<string, number> = {
  // A logo as a data: URL of an image of at most 256 KiB (base64: a third more).
  'PATCH /workspace/v1/team': 512 * KIB,
  'PATCH /admin/v1/teams/:team_id': 512 * KIB,
  // A long text answer of 20,000 characters, a drawn signature of 50,000, escaped.
  'PUT /portal/v1/onboardings/:token/answers/:field_id': 256 * KIB,
  'POST /portal/v1/onboardings/:token/fields/:field_id/signature': 256 * KIB,
  // An e-mail action's body and a notification's message of 10,000 characters each, escaped.
  'POST /workspace/v1/automation-rules': 256 * KIB,
  'PATCH /workspace/v1/automation-rules/:id': 256 * KIB,
  'POST /admin/v1/teams/:team_id/automation-rules': 256 * KIB,
  'PATCH /admin/v1/teams/:team_id/automation-rules/:rule_id': 256 * KIB,
};

/** The body limit of a route that names none itself. */
export function bodyLimitFor(method: string, url: string): number {
  const listed = BODY_LIMIT_OVERRIDES[`${method.toUpperCase()} ${url}`];
  if (listed !== undefined) return listed;
  return url === '/api/v1' || url.startsWith('/api/v1/') ? PUBLIC_API_BODY_LIMIT : DEFAULT_BODY_LIMIT;
}

/**
 * Gives every route registered on `app` from now on its body limit (an onRoute hook on the
 * root, before any route plugin). A route with several methods takes the largest of theirs.
 */
export function limitBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit !== undefined) return;
    const methods = [route.method].flat().map(String);
    route.bodyLimit = Math.max(...methods.map((method) => bodyLimitFor(method, route.url)));
  });
}
