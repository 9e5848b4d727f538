import { teamExists } from '../../projections/teams/queries.ts';
import { operatorSchema } from '../../shared/http/route-schema.ts';
import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { codedError } from '../../shared/http/api-error.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { requestMetadata } from '../../shared/http/request-metadata.ts';
import { eraseClientData, type ClientErasureDeps } from './client-erasure.ts';
import { awaitReadModels } from '../../shared/commands/read-your-writes.ts';

export type ClientErasureRouteDeps = Pick<Platform, 'pool' | 'projections' | 'logger'> & ClientErasureDeps;

/**
 * POST /admin/v1/teams/:team_id/clients/:client_id/erase (operator-and-portal-api.md):
 * 202 once the client's personal data is unreadable (./client-erasure.ts) and the read
 * models show it. Erasing an erased client runs the steps again and answers 202 too.
 */
export async function clientErasureRoutes(
  plain: FastifyInstance,
  { context }: { context: ClientErasureRouteDeps },
) {
  const app = zodApp(plain);

  app.post(
    '/teams/:team_id/clients/:client_id/erase',
    {
      schema: operatorSchema(
        'adminEraseClient',
        "Erase a client's personal data (crypto-shredding); its onboardings leave every list and their links stop working",
        { params: z.object({ team_id: z.string().uuid(), client_id: z.string().uuid() }) },
        {
          202: z.object({
            success: z.literal(true),
            client_id: z.string().uuid(),
            erased_at: z.string(),
            onboardings: z.number().int().describe("the client's onboardings marked erased"),
          }),
          404: coded(
            "Unknown team (code team_not_found); unknown client or another team's (client_not_found)",
          ),
        },
      ),
    },
    async (request, reply) => {
      const { team_id: teamId, client_id: clientId } = request.params;
      if (!(await teamExists(context.pool, teamId)))
        throw codedError(404, 'team_not_found', 'Team not found');
      const outcome = await eraseClientData(context, teamId, clientId, requestMetadata(request));
      await awaitReadModels(context, outcome.position);
      return reply.status(202).send({
        success: true as const,
        client_id: outcome.clientId,
        erased_at: outcome.erasedAt,
        onboardings: outcome.onboardings,
      });
    },
  );
}
