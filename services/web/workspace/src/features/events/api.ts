/** The activity feature's calls of the workspace API through the shared typed client (generated types). */
import { call } from '../../../../shared/api/client.ts';
import { api } from '../../api.ts';

/** One page of the team's audit entries, newest first, from `cursor` (null: the newest). */
export const listAudit = (limit: number, cursor: string | null) =>
  call(api.GET('/workspace/v1/audit', { params: { query: { limit, ...(cursor ? { cursor } : {}) } } }));
