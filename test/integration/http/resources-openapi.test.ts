import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest } from '../../helpers/tenant.ts';

/** The routes of clients, templates, events and hook subscriptions in /openapi.json, with their errors. */

let service: TestService;
let document: any;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  document = await (await fetch(`${service.url}/openapi.json`)).json();
});

afterAll(async () => {
  await service?.stop();
});

const routes: Array<[method: string, path: string, statuses: string[]]> = [
  ['get', '/api/v1/clients', ['200', '400', '401', '403', '429', '500']],
  ['post', '/api/v1/clients', ['200', '201', '400', '401', '403', '413', '422', '429', '500', '503']],
  ['get', '/api/v1/clients/{id}', ['200', '401', '403', '404', '429', '500']],
  ['get', '/api/v1/templates', ['200', '400', '401', '403', '429', '500']],
  ['get', '/api/v1/templates/{id}', ['200', '401', '403', '404', '429', '500']],
  ['get', '/api/v1/events', ['200', '400', '401', '403', '429', '500']],
  ['post', '/api/v1/automation/subscribe', ['201', '400', '401', '403', '413', '429', '500']],
  ['delete', '/api/v1/automation/subscribe', ['200', '400', '401', '403', '404', '413', '429', '500']],
];

describe('OpenAPI document', () => {
  it('is a valid OpenAPI document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined();
  });

  it.each(routes)('lists %s %s with its responses', (method, path, statuses) => {
    const operation = document.paths[path]?.[method];
    expect(operation, `${method} ${path}`).toBeDefined();
    expect(Object.keys(operation.responses).sort()).toEqual([...statuses].sort());
  });

  it.each(routes)('%s %s answers 401 api_key_required without a key', async (method, path) => {
    const answer = await apiRequest(
      service,
      undefined,
      method.toUpperCase(),
      path.replace('/api/v1', '').replace('{id}', 'x'),
    );
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('api_key_required');
  });

  it('documents the allowed values of the events type filter and of the subscription event', () => {
    const typeParameter = document.paths['/api/v1/events'].get.parameters.find(
      (parameter: { name: string }) => parameter.name === 'type',
    );
    expect(typeParameter.schema.enum).toHaveLength(8);
    const body =
      document.paths['/api/v1/automation/subscribe'].post.requestBody.content['application/json'].schema;
    expect(body.properties.event.enum).toHaveLength(8);
    expect(body.required).toEqual(['event', 'target_url']);
  });
});
