/** The import's and the bulk send's calls of the workspace API (typed by the generated OpenAPI). */
import { call } from '../../../../../shared/api/client.ts';
import { api, type ApiAnswer, type ApiBody } from '../../../api.ts';

export type Preview = ApiAnswer<'/workspace/v1/clients/import/preview', 'post'>;
export type Mapping = Preview['mapping'];
export type Imported = ApiAnswer<'/workspace/v1/clients/import', 'post'>;
export type SendSummary = ApiAnswer<'/workspace/v1/onboardings/bulk-send', 'post'>;

export const previewImport = (csv: string, mapping?: Mapping) =>
  call(api.POST('/workspace/v1/clients/import/preview', { body: mapping ? { csv, mapping } : { csv } }));

export const importClients = (csv: string, mapping: Mapping) =>
  call(api.POST('/workspace/v1/clients/import', { body: { csv, mapping } }));

export const bulkSend = (body: ApiBody<'/workspace/v1/onboardings/bulk-send', 'post'>) =>
  call(api.POST('/workspace/v1/onboardings/bulk-send', { body }));
