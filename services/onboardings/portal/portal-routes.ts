import type { FastifyInstance } from 'fastify';
import type { RateLimiter } from '../../../shared/rate-limit/rate-limiter.ts';
import { PortalAccess } from './portal-access.ts';
import { portalCheckoutRoutes } from './portal-checkout-routes.ts';
import { portalFaceRoutes } from './portal-face.ts';
import { portalFileRoutes } from './portal-file-routes.ts';
import { portalFormRoutes } from './portal-form-routes.ts';
import type { PinAttempts } from './portal-pin-attempts.ts';
import { portalRequests, type PortalRouteDeps } from './portal-requests.ts';
import { portalSessionRoutes } from './portal-session-routes.ts';
import { portalDocumentRoutes } from '../documents/document-routes.ts';

export type { PortalRouteDeps } from './portal-requests.ts';

/*
 * The client portal's routes (operator-and-portal-api.md, Client portal API), one file per
 * resource: the face (./portal-face.ts), the link session (./portal-session-routes.ts),
 * the form and its answers (./portal-form-routes.ts) and files (./portal-file-routes.ts),
 * registered in the order the OpenAPI document lists them. Every route passes the link
 * rules of ./portal-access.ts first (./portal-requests.ts).
 */
export async function portalRoutes(
  app: FastifyInstance,
  {
    context,
    limiter,
    pinAttempts,
    publicUrl,
  }: {
    context: PortalRouteDeps;
    limiter: RateLimiter | null;
    /** The wrong-PIN lock (./portal-pin-attempts.ts); null when RATE_LIMITS=off. */
    pinAttempts: PinAttempts | null;
    /** PUBLIC_URL: an https one makes the link session's cookie Secure. */
    publicUrl: string;
  },
) {
  const access = new PortalAccess({
    pool: context.pool,
    eventStore: context.eventStore,
    clock: context.clock,
    limiter,
    pinAttempts,
  });
  const portal = portalRequests(context, access);
  await portalFaceRoutes(app, { context, access });
  portalSessionRoutes(app, portal, publicUrl);
  portalFormRoutes(app, portal);
  portalFileRoutes(app, portal);
  portalCheckoutRoutes(app, portal, { limiter, publicUrl });
  portalDocumentRoutes(app, portal);
}
