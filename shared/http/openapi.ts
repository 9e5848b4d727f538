import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { setDocsSecurityHeaders } from './docs-security-headers.ts';
import { jsonSchema2020Transform } from './openapi-3-1-schema.ts';
import { polishDocument, type DocumentPolish } from './openapi-document.ts';

/**
 * The OpenAPI 3.1 document is generated from the route schemas (zod; each names its
 * operationId), never written by hand: GET /openapi.json, with a browsable page at /docs.
 * `polish` adds what the route schemas cannot say (./openapi-document.ts): examples,
 * headers, security.
 */
export async function openApiDocs(app: FastifyInstance, polish: DocumentPolish) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Client Onboarding Service',
        version: '1.0.0',
        description:
          'Teams invite their clients to fill in onboarding forms. Four APIs, one tag each: the public API (/api/v1, API keys), the operator API (/admin/v1, ADMIN_TOKEN), the client portal (/portal/v1, the client link and its PIN) and the workspace (/workspace/v1, a session cookie). Every answer carries X-Request-Id; the `webhooks` list the bodies the service POSTs to hook and webhook targets.',
      },
      components: { securitySchemes: { ...polish.securitySchemes } } as never,
      security: [{ apiKey: [] }],
    },
    transform: jsonSchema2020Transform,
    transformObject: (input) => {
      const document = 'openapiObject' in input ? input.openapiObject : input.swaggerObject;
      return polishDocument(document as Record<string, unknown>, polish) as typeof document;
    },
  });
  // Every answer under /docs carries the pages' security headers (./docs-security-headers.ts):
  // the hook lives in a context of its own, so it covers the UI's routes and nothing else.
  await app.register(async (docs) => {
    docs.addHook('onSend', async (_request, reply) => setDocsSecurityHeaders(reply));
    await docs.register(swaggerUi, { routePrefix: '/docs', validatorUrl: false });
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
