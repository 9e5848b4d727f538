/**
 * The generated OpenAPI document as SDK generators and linters need it: Redocly's
 * recommended rules pass with no error and no warning (redocly.yaml); every operation of
 * the public, operator, portal and workspace APIs has a unique operationId (from its route's
 * schema; the typed client below keeps it stable), a summary, an example per request body
 * and per answer, and the headers it sends; the webhooks list every hook and signed-webhook payload; and the committed typed client
 * (services/web/shared/api/openapi.d.ts, openapi-typescript, which the web apps' API client
 * is typed by) is what the document makes today.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_EVENT_TYPES } from '../../../services/events/contract/public-event-types.ts';
import { WEBHOOK_EVENT_TYPES } from '../../../services/hooks/contract/webhook-event-types.ts';
import { registeredRoutes } from '../../../shared/http/route-registry.ts';
import { GENERATED_TYPES, redoclyLint, typesOf } from '../../helpers/openapi-types.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { request } from '../../helpers/tenant.ts';

let service: TestService;
let document: any;
beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  document = (await request(service, 'GET', '/openapi.json')).body;
});
afterAll(async () => {
  await service?.stop();
});

const API_PREFIXES = ['/api/v1/', '/admin/v1/', '/portal/v1/', '/workspace/v1/'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

function operations(): { key: string; path: string; method: string; operation: any }[] {
  return Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      key: `${method.toUpperCase()} ${path}`,
      path,
      method,
      operation: item[method],
    })),
  );
}

describe('redocly lint (recommended rules, redocly.yaml)', () => {
  it('finds no error and no warning', async () => {
    const lint = await redoclyLint(document);
    expect(lint.output, lint.output).toContain('Your API description is valid');
    expect(lint.output, lint.output).not.toMatch(/\b(error|warning)\b\s+[a-z-]+/);
    expect(lint.output, lint.output).not.toMatch(/You have \d+ warning/);
    expect(lint.exitCode, lint.output).toBe(0);
  }, 60_000);
});

describe('operations', () => {
  // The operationId comes from the route's own schema: a route without one fails here, and a
  // renamed one changes the committed typed client (the last test).
  it('every route of the four APIs is documented with an operationId of its own, unique', () => {
    const routes = registeredRoutes(service.app).filter(
      (route) =>
        !route.hidden &&
        route.method !== 'HEAD' &&
        API_PREFIXES.some((prefix) => route.url.startsWith(prefix)),
    );
    expect(routes.length).toBeGreaterThan(100);
    for (const route of routes) {
      const key = `${route.method} ${toOpenApiPath(route.url)}`;
      const operation = document.paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase()];
      expect(operation, key).toBeDefined();
      expect(operation.operationId, key).toMatch(/^[a-z][A-Za-z0-9]+$/);
    }
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['listClients', 'createClient', 'sendOnboarding', 'getMe']));
  });

  it('every operation has a summary, a tag of its API, security and the examples of each body', () => {
    for (const { key, path, operation } of operations()) {
      expect(operation.summary, key).toBeTruthy();
      const tag = { api: 'public', admin: 'operator', portal: 'portal', workspace: 'workspace' }[
        path.split('/')[1]!
      ];
      expect(operation.tags, key).toEqual([tag]);
      expect(Array.isArray(operation.security), key).toBe(true);
      // Each route binds its API's error table in its own schema (publicErrorResponses,
      // operatorErrorResponses, portalErrors, workspaceErrorResponses).
      expect(operation.responses['500'], `${key} 500`).toBeDefined();
      for (const [type, media] of Object.entries<any>(operation.requestBody?.content ?? {})) {
        expect(media.example, `${key} request ${type}`).toBeDefined();
      }
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        for (const [type, media] of Object.entries<any>(response.content ?? {})) {
          expect(media.example, `${key} ${status} ${type}`).toBeDefined();
        }
        expect(response.headers['X-Request-Id'], `${key} ${status}`).toEqual({
          $ref: '#/components/headers/RequestId',
        });
        if (status === '429') expect(response.headers['Retry-After'], `${key} 429`).toBeDefined();
        if (tag === 'public' || tag === 'portal') {
          expect(response.headers.RateLimit, `${key} ${status}`).toBeDefined();
          expect(response.headers['RateLimit-Policy'], `${key} ${status}`).toBeDefined();
        }
      }
    }
  });

  it('gives the public API descriptions in the spec words', () => {
    expect(document.paths['/api/v1/clients'].get.description).toContain(
      'Query: limit, offset, email (exact match, case-insensitive). Sorted newest first.',
    );
    expect(document.paths['/api/v1/onboardings/{id}/send'].post.description).toContain(
      'issues a new client link, deactivates prior tokens',
    );
  });

  it('documents Idempotent-Replayed on the successes of the three idempotent operations', () => {
    for (const [path, method, status] of [
      ['/api/v1/onboardings', 'post', '201'],
      ['/api/v1/onboardings/{id}', 'patch', '200'],
      ['/api/v1/onboardings/{id}/send', 'post', '200'],
    ] as const) {
      expect(document.paths[path][method].responses[status].headers['Idempotent-Replayed']).toEqual({
        $ref: '#/components/headers/IdempotentReplayed',
      });
    }
    expect(
      document.paths['/api/v1/clients'].post.responses['201'].headers['Idempotent-Replayed'],
    ).toBeUndefined();
  });

  it('documents the multipart upload body of the portal', () => {
    const body = document.paths['/portal/v1/onboardings/{token}/fields/{field_id}/files'].post.requestBody;
    expect(body.content['multipart/form-data'].schema.required).toEqual(['file']);
  });
});

describe('document', () => {
  it('names servers, the security schemes of each API and the tags', () => {
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(
      ['apiKey', 'csrfToken', 'operatorToken', 'portalPin', 'workspaceSession'].sort(),
    );
    expect(document.paths['/admin/v1/teams'].post.security).toEqual([{ operatorToken: [] }]);
    expect(document.paths['/api/v1/me'].get.security).toEqual([{ apiKey: [] }]);
    expect(document.paths['/portal/v1/onboardings/{token}'].get.security).toEqual([{}, { portalPin: [] }]);
    expect(document.paths['/workspace/v1/team'].patch.security).toEqual([
      { workspaceSession: [], csrfToken: [] },
    ]);
    expect(document.paths['/workspace/v1/team'].get.security).toEqual([{ workspaceSession: [] }]);
    expect(document.paths['/workspace/v1/sessions'].post.security).toEqual([{}]);
    expect(document.tags.map((tag: any) => tag.name)).toEqual([
      'public',
      'operator',
      'portal',
      'workspace',
      'webhooks',
    ]);
  });

  it('names a component schema for each resource and error body and refers to it', () => {
    const schemas = document.components.schemas;
    for (const name of [
      'Client',
      'Onboarding',
      'Template',
      'Response',
      'AuditEvent',
      'Error',
      'TextError',
      'RateLimitedError',
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
    const created =
      document.paths['/api/v1/clients'].post.responses['201'].content['application/json'].schema;
    expect(created.properties.client).toEqual({ $ref: '#/components/schemas/Client' });
    const unauthorized = document.paths['/api/v1/me'].get.responses['401'].content['application/json'].schema;
    expect(unauthorized.$ref).toBe('#/components/schemas/Error');
    const limited = document.paths['/api/v1/me'].get.responses['429'].content['application/json'].schema;
    expect(limited.$ref).toBe('#/components/schemas/RateLimitedError');
  });

  it('holds no 3.0-style boolean exclusiveMinimum or exclusiveMaximum', () => {
    const text = JSON.stringify(document);
    expect(text).not.toMatch(/"exclusive(Minimum|Maximum)":(true|false)/);
    expect(text).not.toMatch(/"nullable":(true|false)/);
  });

  it('lists the hook and signed-webhook payload of every event type as webhooks', () => {
    for (const type of PUBLIC_EVENT_TYPES) {
      const hook = document.webhooks[`hook ${type}`].post;
      expect(hook.requestBody.content['application/json'].example.event).toBe(type);
    }
    for (const type of WEBHOOK_EVENT_TYPES) {
      const signed = document.webhooks[`signed webhook ${type}`].post;
      expect(signed.parameters.map((parameter: any) => parameter.name)).toContain('X-Service-Signature');
      const schema = signed.requestBody.content['application/json'].schema;
      expect(document.components.schemas[schema.$ref.split('/').pop()].properties.event.const).toBe(type);
    }
    const sent = document.components.schemas.OnboardingSentPayload.properties.data.properties;
    expect(Object.keys(sent)).toEqual(
      expect.arrayContaining(['onboarding_id', 'status', 'send_number', 'resend']),
    );
  });
});

describe('the typed client (openapi-typescript)', () => {
  it('is the one the document makes (UPDATE_GENERATED=1 writes it again)', async () => {
    const types = await typesOf(document);
    if (process.env.UPDATE_GENERATED === '1') await writeFile(GENERATED_TYPES, types);
    expect(await readFile(GENERATED_TYPES, 'utf8')).toBe(types);
  }, 60_000);
});
