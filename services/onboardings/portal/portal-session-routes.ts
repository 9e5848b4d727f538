import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import { PIN_HEADER } from './portal-access.ts';
import { LINK_SESSION_IDLE_SECONDS, openLinkSession, setLinkSessionCookie } from './portal-link-sessions.ts';
import { pinHeaders, portalErrors, tokenParams, type PortalRequests } from './portal-requests.ts';

/** POST /portal/v1/onboardings/:token/session: a link session for the PIN (./portal-link-sessions.ts). */
export function portalSessionRoutes(plain: FastifyInstance, portal: PortalRequests, publicUrl: string) {
  const app = zodApp(plain);
  const { context, access } = portal;
  app.post(
    '/onboardings/:token/session',
    {
      schema: {
        operationId: 'portalOpenLinkSession',
        tags: ['portal'],
        summary:
          'Open a link session with the PIN: a short-lived HttpOnly cookie, so the form checks the PIN once per visit (records nothing)',
        description: `Checks X-Onboarding-Pin like every portal route (it always checks the PIN, even with a live session) and answers a cookie (HttpOnly, SameSite=Strict, Path=/portal/v1/onboardings/, Secure over https) that the other portal routes of this link accept instead of the PIN until it ends: ${LINK_SESSION_IDLE_SECONDS / 60} minutes after its last request, or at expires_at. A new PIN or a new link (resend) ends it. A link without a PIN needs no session: 200 with expires_at null and no cookie. The answer has Cache-Control: no-store.`,
        security: [],
        params: tokenParams,
        headers: pinHeaders,
        response: {
          200: z.object({
            expires_at: z
              .string()
              .nullable()
              .describe('when the session ends at the latest (ISO 8601); null for a link without a PIN'),
            idle_timeout_seconds: z
              .number()
              .int()
              .describe('the session ends this long after its last request'),
          }),
          ...portalErrors(),
        },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      // The PIN itself, whatever cookie the request carries.
      const link = await access.open(request.params.token, { pin: request.headers[PIN_HEADER] });
      if (link.state.pin === null)
        return { expires_at: null, idle_timeout_seconds: LINK_SESSION_IDLE_SECONDS };
      const session = await openLinkSession(context.pool, {
        tokenHash: link.tokenHash,
        pinSalt: link.state.pin.salt,
        now: context.clock.now(),
      });
      setLinkSessionCookie(reply, request, { tokenHash: link.tokenHash, id: session.id, publicUrl });
      return { expires_at: session.expiresAt.toISOString(), idle_timeout_seconds: LINK_SESSION_IDLE_SECONDS };
    },
  );
}
