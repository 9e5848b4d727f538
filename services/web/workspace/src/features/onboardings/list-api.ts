/** The onboardings list's calls: a page of the view, bulk actions, and the export's address. */
import { call } from '../../../../shared/api/client.ts';
import { api, type ApiBody } from '../../api.ts';
import type { ListQuery } from '../clients/records.ts';
import { filtersOf, type ListView } from './list-view.ts';

/** A page of the team's onboardings in the view. */
export const listView = (view: ListView, size: number) =>
  call(
    api.GET('/workspace/v1/onboardings', {
      params: { query: { ...(filtersOf(view) as ListQuery), limit: size, offset: (view.page - 1) * size } },
    }),
  );

export type BulkBody = ApiBody<'/workspace/v1/onboardings/bulk', 'post'>;

/** One action on many onboardings: what was done and each refusal. */
export const bulkAction = (body: BulkBody) => call(api.POST('/workspace/v1/onboardings/bulk', { body }));

/** The CSV export of every row of the view (the server reads the session cookie). */
export const exportHref = (view: ListView) => {
  const query = new URLSearchParams(filtersOf(view)).toString();
  return `/workspace/v1/onboardings/export${query ? `?${query}` : ''}`;
};
