/**
 * The templates feature's calls of the workspace API through the shared typed client: paths,
 * parameters, bodies and answers are the generated OpenAPI types.
 */
import { call } from '../../../../shared/api/client.ts';
import { api, type ApiAnswer, type ApiBody } from '../../api.ts';

/** One of the team's own templates, to choose from (GET /workspace/v1/templates). */
export type TemplateChoice = ApiAnswer<'/workspace/v1/templates', 'get'>['data'][number];

const byId = (id: string) => ({ params: { path: { id } } });

export const listTemplates = () => call(api.GET('/workspace/v1/templates'));

/** A new template named `name` with one empty first step titled `firstStep`. */
export const createTemplate = (name: string, firstStep: string) =>
  call(
    api.POST('/workspace/v1/templates', {
      body: { name, steps: [{ title: firstStep, sort_order: 0, fields: [] }] },
    }),
  );

export const duplicateTemplate = (id: string) =>
  call(api.POST('/workspace/v1/templates/{id}/duplicate', byId(id)));

export const deleteTemplate = (id: string) => call(api.DELETE('/workspace/v1/templates/{id}', byId(id)));

export const listGallery = () => call(api.GET('/workspace/v1/gallery-templates'));

export const copyGalleryTemplate = (id: string) =>
  call(api.POST('/workspace/v1/gallery-templates/{id}/copy', byId(id)));

/** A template with its whole definition, version and send blockers, for the builder. */
export const getTemplate = (id: string) => call(api.GET('/workspace/v1/templates/{id}', byId(id)));

/** Saves a template's whole definition over the version the builder opened. */
export const saveTemplate = (id: string, body: ApiBody<'/workspace/v1/templates/{id}', 'put'>) =>
  call(api.PUT('/workspace/v1/templates/{id}', { ...byId(id), body }));
