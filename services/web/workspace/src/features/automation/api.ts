/**
 * The automation feature's calls of the workspace API through the shared typed client: paths,
 * parameters, bodies and answers are the generated OpenAPI types.
 */
import { call } from '../../../../shared/api/client.ts';
import { api, type ApiBody as Body } from '../../api.ts';

const byId = (id: string) => ({ params: { path: { id } } });

export const listRules = () => call(api.GET('/workspace/v1/automation-rules'));

export const listPlaceholders = () => call(api.GET('/workspace/v1/automation-rules/placeholders'));

export const createRule = (body: Body<'/workspace/v1/automation-rules', 'post'>) =>
  call(api.POST('/workspace/v1/automation-rules', { body }));

export const updateRule = (id: string, body: Body<'/workspace/v1/automation-rules/{id}', 'patch'>) =>
  call(api.PATCH('/workspace/v1/automation-rules/{id}', { ...byId(id), body }));

export const deleteRule = (id: string) => call(api.DELETE('/workspace/v1/automation-rules/{id}', byId(id)));

export const previewRule = (body: Body<'/workspace/v1/automation-rules/preview', 'post'>) =>
  call(api.POST('/workspace/v1/automation-rules/preview', { body }));

export const testRule = (body: Body<'/workspace/v1/automation-rules/test', 'post'>) =>
  call(api.POST('/workspace/v1/automation-rules/test', { body }));
