import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchema2020Transform } from './openapi-3-1-schema.ts';

/**
 * The OpenAPI 3.1 document is generated from the route schemas (zod), never written by
 * hand: GET /openapi.json, with a browsable page at /docs.
 */
export async function openApiDocs(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Client Onboarding Service',
        version: '1.0.0',
        description: 'Teams invite their clients to fill in onboarding forms. All paths start with /api/v1.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
        },
      },
      security: [{ apiKey: [] }],
    },
    transform: jsonSchema2020Transform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
