/** The client hub's call of the workspace API (GET /workspace/v1/clients/{id}/hub). */
import { call } from '../../../../../shared/api/client.ts';
import { api, type ApiAnswer } from '../../../api.ts';

export type ClientHub = ApiAnswer<'/workspace/v1/clients/{id}/hub', 'get'>;

export const getClientHub = (id: string) =>
  call(api.GET('/workspace/v1/clients/{id}/hub', { params: { path: { id } } }));
