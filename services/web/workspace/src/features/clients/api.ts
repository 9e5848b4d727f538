/**
 * The clients feature's calls of the workspace API through the shared typed client: paths,
 * parameters, bodies and answers are the generated OpenAPI types.
 */
import { call } from '../../../../shared/api/client.ts';
import type { paths } from '../../../../shared/api/openapi.d.ts';
import { api, type ApiBody } from '../../api.ts';

type ClientBody = ApiBody<'/workspace/v1/clients', 'post'>;
type ClientChanges = ApiBody<'/workspace/v1/clients/{id}', 'patch'>;

const byId = (id: string) => ({ params: { path: { id } } });

type ClientQuery = NonNullable<paths['/workspace/v1/clients']['get']['parameters']['query']>;

/** A page of the team's clients, those matching `q` when it is not empty. */
export const listClients = ({ q, ...page }: ClientQuery) =>
  call(api.GET('/workspace/v1/clients', { params: { query: { ...page, ...(q ? { q } : {}) } } }));

export const getClient = (id: string) => call(api.GET('/workspace/v1/clients/{id}', byId(id)));

export const addClient = (body: ClientBody) => call(api.POST('/workspace/v1/clients', { body }));

export const updateClient = (id: string, body: ClientChanges) =>
  call(api.PATCH('/workspace/v1/clients/{id}', { ...byId(id), body }));

export const eraseClient = (id: string) => call(api.POST('/workspace/v1/clients/{id}/erase', byId(id)));
