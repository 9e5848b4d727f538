/**
 * The templates feature's calls of the workspace API through the shared typed client: paths,
 * parameters, bodies and answers are the generated OpenAPI types.
 */
import { call } from '../../../../shared/api/client.ts';
import { api } from '../../api.ts';

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
