import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../../shared/app-deps.ts';
import { RateLimiter, type RateLimitStore } from '../../../shared/rate-limit/rate-limiter.ts';
import { PER_IP_POLICY, rateLimitHeaders, recordQuota } from '../../../shared/http/rate-limit-headers.ts';
import {
  MAX_FILE_BYTES,
  PinAttempts,
  PORTAL_PER_IP_LIMIT,
  PORTAL_RATE_WINDOW_SECONDS,
  portalRateLimited,
  portalRoutes,
  TOO_MANY_PORTAL_REQUESTS,
  type PortalRouteDeps,
} from '../../onboardings/index.ts';

export type PortalApiDeps = Pick<Platform, 'settings' | 'clock' | 'rateLimitStores'> & PortalRouteDeps;

/**
 * The client portal API; registered with prefix /portal/v1 in services/app/routes.ts. No
 * API key: the client access token in the path is the credential (plus the link's PIN).
 * Error bodies are the full ones of the onboarding endpoints (shared/http/error-handler.ts).
 * Every request first passes the per-IP limit of
 * services/onboardings/portal/portal-rate-limits.ts; the portal's routes are the onboardings
 * feature's.
 */
export async function portalApi(
  app: FastifyInstance,
  { context, rateLimitStore }: { context: PortalApiDeps; rateLimitStore?: RateLimitStore },
) {
  // The form page's URL holds the client's token: no answer of the portal lets a referrer out.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Referrer-Policy', 'no-referrer');
  });

  const limiter = context.settings.RATE_LIMITS
    ? new RateLimiter(
        rateLimitStore ??
          context.rateLimitStores.store('portal', PORTAL_RATE_WINDOW_SECONDS, { throughput: true }),
        context.clock,
        PORTAL_RATE_WINDOW_SECONDS,
      )
    : null;
  if (limiter) {
    // Every answer shows the per-IP quota in RateLimit and RateLimit-Policy.
    rateLimitHeaders(app);
    app.addHook('onRequest', async (request) => {
      const decision = await limiter.consume(`portal_ip:${request.ip}`, PORTAL_PER_IP_LIMIT);
      recordQuota(request, {
        policy: PER_IP_POLICY,
        limit: PORTAL_PER_IP_LIMIT,
        windowSeconds: PORTAL_RATE_WINDOW_SECONDS,
        count: decision.count,
        resetSeconds: decision.retryAfterSeconds,
      });
      if (!decision.allowed) throw portalRateLimited(TOO_MANY_PORTAL_REQUESTS, decision.retryAfterSeconds);
    });
  }

  // The link session's cookie (services/onboardings/portal/portal-link-sessions.ts).
  await app.register(cookie);

  // File uploads (multipart/form-data): one file of at most MAX_FILE_BYTES per request.
  await app.register(multipart, { limits: { fileSize: MAX_FILE_BYTES, fields: 20, parts: 30 } });

  // A POST without a body may still say application/json (steps/:id/submit): an empty body is no body.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    return defaultJson(request, body as string, done);
  });

  // The wrong-PIN lock counts in the shared store (Redis or the database), never in this process.
  const pinAttempts = context.settings.RATE_LIMITS
    ? new PinAttempts(context.rateLimitStores, context.clock)
    : null;
  await app.register(portalRoutes, {
    context,
    limiter,
    pinAttempts,
    publicUrl: context.settings.PUBLIC_URL,
  });
}
