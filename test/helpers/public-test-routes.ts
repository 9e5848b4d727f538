import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicErrorResponses } from '../../shared/http/public-errors.ts';
import { publicRoutePlugins } from '../../services/app/apis/public.ts';
import { offsetPaginationQuery } from '../../shared/http/pagination.ts';

/**
 * Routes for tests of the public API's cross-cutting rules, independent of the feature
 * routes: a clients-like list (scope clients:read, pagination, text-only errors) and an
 * onboarding-like create (scope onboardings:write, validated before the scope check,
 * invalid_body errors), and a route that fails (500). Call `addPublicTestRoutes()` before startTestService().
 */
async function publicTestRoutes(plain: FastifyInstance) {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/test-clients',
    {
      config: { scope: 'clients:read' },
      schema: {
        querystring: offsetPaginationQuery,
        response: {
          200: z.object({ team_id: z.string(), limit: z.number(), offset: z.number() }),
          ...publicErrorResponses(),
        },
      },
    },
    async (request) => ({ team_id: request.principal.teamId, ...request.query }),
  );
  app.post(
    '/test-clients',
    {
      config: { scope: 'clients:write' },
      schema: {
        body: z.object({ name: z.string({ required_error: 'name and email are required' }) }),
        response: { 201: z.object({ name: z.string() }), ...publicErrorResponses({ body: true }) },
      },
    },
    async (request, reply) => reply.status(201).send({ name: request.body.name }),
  );
  app.post(
    '/test-onboardings',
    {
      config: { scope: 'onboardings:write', validateBeforeScope: true },
      schema: {
        querystring: z.object({ limit: offsetPaginationQuery.shape.limit }),
        body: z.object({ client_id: z.string().uuid() }),
        response: {
          201: z.object({ client_id: z.string() }),
          ...publicErrorResponses({ validation: 'invalid_body', body: true }),
        },
      },
    },
    async (request, reply) => reply.status(201).send({ client_id: request.body.client_id }),
  );
  app.get(
    '/test-failure',
    { schema: { response: { 200: z.object({}), ...publicErrorResponses({ validation: false }) } } },
    async () => {
      throw new Error('database went away');
    },
  );
}

let added = false;

export function addPublicTestRoutes(): void {
  if (added) return;
  added = true;
  publicRoutePlugins.push(async (app) => {
    await app.register(publicTestRoutes, { prefix: '/__test' });
  });
}
