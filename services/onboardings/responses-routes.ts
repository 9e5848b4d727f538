import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { textError } from '../../shared/http/api-error.ts';
import { limitParam, pageParam } from '../../shared/http/pagination.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { text } from '../../shared/http/error-schemas.ts';
import { publicSchema } from '../../shared/http/route-schema.ts';
import { visibleOnboardingExists } from '../../projections/onboardings/queries.ts';
import { listResponses, responseSchema } from '../../projections/responses/queries.ts';

export type ResponsesRouteDeps = Pick<Platform, 'readPool' | 'vault'>;

/*
 * GET /api/v1/responses (client-onboarding-api.md: Response; GET /api/v1/responses): the
 * answers of one onboarding of the key's team, oldest first, page pagination. Read from
 * the responses read model (projections/responses/projection.ts). Text-only errors:
 * 400 onboarding_id is required (missing or not a UUID), 404 Onboarding not found
 * (unknown, another team's, or its client was erased).
 */

export const ONBOARDING_ID_REQUIRED = 'onboarding_id is required';
const NOT_FOUND = 'Onboarding not found';

const responsesQuery = z.object({
  // First, so a missing onboarding_id is the error a request with several problems gets.
  onboarding_id: z
    .string({ required_error: ONBOARDING_ID_REQUIRED, invalid_type_error: ONBOARDING_ID_REQUIRED })
    .uuid(ONBOARDING_ID_REQUIRED)
    .describe('the onboarding whose responses are listed (uuid, required)'),
  page: pageParam,
  limit: limitParam(50),
});

export async function responsesRoutes(plain: FastifyInstance, { context }: { context: ResponsesRouteDeps }) {
  const app = zodApp(plain);

  app.get(
    '/responses',
    {
      config: { scope: 'responses:read' },
      schema: publicSchema(
        'responses',
        {
          operationId: 'listResponses',
          summary: "List an onboarding's responses (answers), oldest first",
          description:
            'Scope responses:read. Query: `onboarding_id` (uuid, required), page, limit. Oldest first. Response 200: `responses`, `total`, `page`, `limit`. Errors: 400 onboarding_id is required (missing or not a valid ID); 404 Onboarding not found.',
        },
        { querystring: responsesQuery },
        {
          200: z.object({
            responses: z.array(responseSchema),
            total: z.number().int(),
            page: z.number().int(),
            limit: z.number().int(),
          }),
          400: text('onboarding_id is required (missing or not a UUID), or a page or limit message'),
          404: text("Onboarding not found (unknown id, another team's onboarding, or an erased client's)"),
        },
      ),
    },
    async (request) => {
      const { onboarding_id: onboardingId, page, limit } = request.query;
      if (!(await visibleOnboardingExists(context.readPool, request.principal.teamId, onboardingId))) {
        throw textError(404, NOT_FOUND);
      }
      const { responses, total } = await listResponses(context.readPool, context.vault, onboardingId, {
        page,
        limit,
      });
      return { responses, total, page, limit };
    },
  );
}
