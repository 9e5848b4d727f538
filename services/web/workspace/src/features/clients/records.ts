/** The client and onboarding answers of the workspace API, as the generated OpenAPI types say them. */
import type { paths } from '../../../../shared/api/openapi.d.ts';
import type { ApiAnswer } from '../../api.ts';

/** A client of the team as the list answers it (GET /workspace/v1/clients). */
export type ClientView = ApiAnswer<'/workspace/v1/clients', 'get'>['data'][number];

/** A client with its language, date format and time zone (GET /workspace/v1/clients/{id}). */
export type ClientDetails = ApiAnswer<'/workspace/v1/clients/{id}', 'get'>['client'];

/** An onboarding as the list answers it; the page's answers (GET, PATCH, actions) carry more. */
export type OnboardingView = ApiAnswer<'/workspace/v1/onboardings', 'get'>['data'][number];

/** The query of GET /workspace/v1/onboardings: the filters and the page. */
export type ListQuery = NonNullable<paths['/workspace/v1/onboardings']['get']['parameters']['query']>;

/** The month's usage of the team's plan (GET /workspace/v1/onboardings/usage). */
export type Usage = ApiAnswer<'/workspace/v1/onboardings/usage', 'get'>;

export { ONBOARDING_STATUSES, type OnboardingStatus } from '../../../../../onboardings/contract/statuses.ts';

/** Pure: the actions an onboarding's status allows on its page. */
export function allowedActions(onboarding: Pick<OnboardingView, 'status' | 'archived_at'>) {
  const { status } = onboarding;
  const archived = onboarding.archived_at !== null;
  const open = status === 'draft' || status === 'sent' || status === 'in_progress';
  const closed = !open;
  return {
    send: !archived && status === 'draft',
    resend: !archived && (status === 'sent' || status === 'in_progress'),
    cancel: !archived && open,
    reopen: !archived && closed,
    edit: !archived && open,
    archive: !archived,
    unarchive: archived,
  };
}

/** Pure: the query of the onboardings list's filters (empty ones left out), then the page. */
export function listQuery(filters: Record<string, string>, limit: number, offset: number): ListQuery {
  const chosen = Object.entries(filters).filter(([, value]) => value !== '');
  // The filters' values are the options of the list's selects, the API's own values.
  return { ...(Object.fromEntries(chosen) as ListQuery), limit, offset };
}
