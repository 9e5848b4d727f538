/**
 * The clients feature's calls of the workspace API through the shared typed client: paths,
 * parameters, bodies and answers are the generated OpenAPI types.
 */
import { call } from '../../../../shared/api/client.ts';
import type { paths } from '../../../../shared/api/openapi.d.ts';
import { api } from '../../api.ts';

type ClientBody = NonNullable<
  paths['/workspace/v1/clients']['post']['requestBody']
>['content']['application/json'];

const byId = (id: string) => ({ params: { path: { id } } });

/** A page of the team's clients from `offset`, those matching `q` when given. */
export const listClients = (limit: number, offset: number, q: string) =>
  call(api.GET('/workspace/v1/clients', { params: { query: { limit, offset, ...(q ? { q } : {}) } } }));

export const getClient = (id: string) => call(api.GET('/workspace/v1/clients/{id}', byId(id)));

export const addClient = (body: ClientBody) => call(api.POST('/workspace/v1/clients', { body }));

export const updateClient = (id: string, body: ClientBody) =>
  call(api.PATCH('/workspace/v1/clients/{id}', { ...byId(id), body }));

export const eraseClient = (id: string) => call(api.POST('/workspace/v1/clients/{id}/erase', byId(id)));
