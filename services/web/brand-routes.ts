import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../shared/app-deps.ts';
import { currentTeamLogo } from '../../projections/teams/queries.ts';
import { setPageSecurityHeaders } from './security-headers.ts';

/**
 * GET /brand/:team_id/logo: a team's current logo, for the client's form page (the face
 * and form answers of the portal name it as logo_url, `?v=` a short hash of its bytes).
 * Public like the page itself: a logo is what a team shows its clients. The ETag is the
 * logo's SHA-256; a URL whose `v` is the current logo's is cached for a year, any other
 * is revalidated. 404 when the team has no logo.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function brandRoutes(app: FastifyInstance, { context }: { context: Pick<Platform, 'pool'> }) {
  app.addHook('onSend', async (_request, reply) => {
    setPageSecurityHeaders(reply);
  });

  app.get('/brand/:team_id/logo', { schema: { hide: true } }, async (request, reply) => {
    const { team_id: teamId } = request.params as { team_id: string };
    const { v } = request.query as { v?: unknown };
    const logo = UUID.test(teamId) ? await currentTeamLogo(context.pool, teamId) : undefined;
    if (!logo) {
      return reply
        .status(404)
        .header('Cache-Control', 'no-cache')
        .send({ error: 'Not found', code: 'not_found', request_id: request.id });
    }
    const etag = `"${logo.sha256}"`;
    const versioned = typeof v === 'string' && v.length >= 8 && logo.sha256.startsWith(v);
    reply
      .header('ETag', etag)
      .header('Cache-Control', versioned ? 'public, max-age=31536000, immutable' : 'no-cache');
    const match = request.headers['if-none-match'];
    if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return reply.status(304).send();
    }
    return reply.type(logo.content_type).send(logo.content);
  });
}
