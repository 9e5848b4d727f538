/**
 * The OpenAPI 3.1 document is generated from the route schemas: it validates with a
 * standard validator and lists every /api/v1 route registered on the app (taken from the
 * app itself, so routes added later are covered), with its error responses. Every
 * /api/v1 route also sits behind the key check.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../../shared/http/route-registry.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { request } from '../../helpers/tenant.ts';

let service: TestService;
let document: any;
beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  const answer = await request(service, 'GET', '/openapi.json');
  expect(answer.status).toBe(200);
  document = answer.body;
});
afterAll(async () => {
  await service?.stop();
});

const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

function publicRoutes() {
  return registeredRoutes(service.app).filter(
    (route) => route.url.startsWith('/api/v1/') && route.method !== 'HEAD',
  );
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
  });

  it('lists every /api/v1 route with its key, plan, rate-limit and server errors', () => {
    const routes = publicRoutes();
    expect(routes.map((route) => `${route.method} ${route.url}`)).toContain('GET /api/v1/me');
    for (const route of routes) {
      const operation = document.paths?.[toOpenApiPath(route.url)]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.url} in /openapi.json`).toBeDefined();
      for (const status of ['200', '401', '403', '429', '500']) {
        const answered = Object.keys(operation.responses);
        if (status === '200') {
          expect(
            answered.some((code) => code.startsWith('2')),
            `${route.method} ${route.url} success`,
          ).toBe(true);
        } else {
          expect(answered, `${route.method} ${route.url} answers ${status}`).toContain(status);
        }
      }
    }
  });

  it('documents the error bodies of GET /api/v1/me', async () => {
    const dereferenced: any = await SwaggerParser.dereference(structuredClone(document));
    const responses = dereferenced.paths['/api/v1/me'].get.responses;
    expect(Object.keys(responses).sort()).toEqual(['200', '401', '403', '429', '500']);
    const unauthorized = responses['401'].content['application/json'].schema;
    expect(unauthorized.required).toEqual(['error', 'code', 'message', 'retryable', 'request_id']);
    const limited = responses['429'].content['application/json'].schema;
    expect(Object.keys(limited.properties)).toEqual(['error', 'code']);
    const ok = responses['200'].content['application/json'].schema;
    expect(Object.keys(ok.properties)).toEqual(['team', 'limits']);
  });

  it('lists the operator routes too', () => {
    expect(document.paths['/admin/v1/teams'].post).toBeDefined();
    expect(document.paths['/admin/v1/teams/{team_id}/api-keys'].post.responses['409']).toBeDefined();
  });
});

describe('every /api/v1 route', () => {
  it('requires an API key', async () => {
    for (const route of publicRoutes()) {
      const path = route.url.replace(/:[A-Za-z_]+/g, () => randomUUID());
      const answer = await request(service, route.method, path, {
        body: ['POST', 'PATCH', 'PUT', 'DELETE'].includes(route.method) ? {} : undefined,
      });
      expect(answer.status, `${route.method} ${route.url}`).toBe(401);
      expect(answer.body.code).toBe('api_key_required');
    }
  });
});

describe('GET /docs', () => {
  it('serves a browsable page', async () => {
    const response = await fetch(`${service.url}/docs`, { redirect: 'follow' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
  });
});
