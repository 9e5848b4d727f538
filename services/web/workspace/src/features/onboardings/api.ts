/**
 * The onboardings feature's calls of the workspace API through the shared typed client:
 * paths, parameters, bodies and answers are the generated OpenAPI types.
 */
import { call } from '../../../../shared/api/client.ts';
import type { paths } from '../../../../shared/api/openapi.d.ts';
import { api } from '../../api.ts';

type Body<P extends keyof paths, M extends 'post' | 'patch'> = NonNullable<
  (paths[P][M] & { requestBody?: { content: { 'application/json': unknown } } })['requestBody']
>['content']['application/json'];

const byId = (id: string) => ({ params: { path: { id } } });

export const getOnboarding = (id: string) => call(api.GET('/workspace/v1/onboardings/{id}', byId(id)));

export const changeOnboarding = (id: string, body: Body<'/workspace/v1/onboardings/{id}', 'patch'>) =>
  call(api.PATCH('/workspace/v1/onboardings/{id}', { ...byId(id), body }));

export const sendOnboarding = (id: string, body: Body<'/workspace/v1/onboardings/{id}/send', 'post'>) =>
  call(api.POST('/workspace/v1/onboardings/{id}/send', { ...byId(id), body }));

export const reopenOnboarding = (id: string, body: Body<'/workspace/v1/onboardings/{id}/reopen', 'post'>) =>
  call(api.POST('/workspace/v1/onboardings/{id}/reopen', { ...byId(id), body }));

export const cancelOnboarding = (id: string) =>
  call(api.POST('/workspace/v1/onboardings/{id}/cancel', byId(id)));

export const archiveOnboarding = (id: string) =>
  call(api.POST('/workspace/v1/onboardings/{id}/archive', byId(id)));

export const unarchiveOnboarding = (id: string) =>
  call(api.POST('/workspace/v1/onboardings/{id}/unarchive', byId(id)));
