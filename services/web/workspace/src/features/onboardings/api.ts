/**
 * The onboardings feature's calls of the workspace API through the shared typed client:
 * paths, parameters, bodies and answers are the generated OpenAPI types.
 */
import { call } from '../../../../shared/api/client.ts';
import { api, type ApiBody } from '../../api.ts';
import type { ListQuery } from '../clients/records.ts';

const byId = (id: string) => ({ params: { path: { id } } });
const ofOnboarding = (id: string) => ({ onboarding_id: id });

/** A page of the team's onboardings matching the list's filters. */
export const listOnboardings = (query: ListQuery) =>
  call(api.GET('/workspace/v1/onboardings', { params: { query } }));

export const getUsage = () => call(api.GET('/workspace/v1/onboardings/usage'));

export const createOnboarding = (body: ApiBody<'/workspace/v1/onboardings', 'post'>) =>
  call(api.POST('/workspace/v1/onboardings', { body }));

export const getOnboarding = (id: string) => call(api.GET('/workspace/v1/onboardings/{id}', byId(id)));

export const changeOnboarding = (id: string, body: ApiBody<'/workspace/v1/onboardings/{id}', 'patch'>) =>
  call(api.PATCH('/workspace/v1/onboardings/{id}', { ...byId(id), body }));

export const sendOnboarding = (id: string, body: ApiBody<'/workspace/v1/onboardings/{id}/send', 'post'>) =>
  call(api.POST('/workspace/v1/onboardings/{id}/send', { ...byId(id), body }));

export const reopenOnboarding = (
  id: string,
  body: ApiBody<'/workspace/v1/onboardings/{id}/reopen', 'post'>,
) => call(api.POST('/workspace/v1/onboardings/{id}/reopen', { ...byId(id), body }));

export const cancelOnboarding = (id: string) =>
  call(api.POST('/workspace/v1/onboardings/{id}/cancel', byId(id)));

export const archiveOnboarding = (id: string) =>
  call(api.POST('/workspace/v1/onboardings/{id}/archive', byId(id)));

export const unarchiveOnboarding = (id: string) =>
  call(api.POST('/workspace/v1/onboardings/{id}/unarchive', byId(id)));

/** The onboarding's answered fields with their review status, versions, reviews and diff. */
export const listAnswers = (id: string) =>
  call(
    api.GET('/workspace/v1/onboardings/{onboarding_id}/answers', {
      params: { path: ofOnboarding(id) },
    }),
  );

export const reviewAnswer = (
  id: string,
  fieldId: string,
  body: ApiBody<'/workspace/v1/onboardings/{onboarding_id}/answers/{field_id}/review', 'post'>,
) =>
  call(
    api.POST('/workspace/v1/onboardings/{onboarding_id}/answers/{field_id}/review', {
      params: { path: { ...ofOnboarding(id), field_id: fieldId } },
      body,
    }),
  );

export const countersign = (id: string, fieldId: string) =>
  call(
    api.POST('/workspace/v1/onboardings/{onboarding_id}/countersign', {
      params: { path: ofOnboarding(id) },
      body: { field_id: fieldId },
    }),
  );

export const getTimeline = (id: string) =>
  call(
    api.GET('/workspace/v1/onboardings/{onboarding_id}/timeline', {
      params: { path: ofOnboarding(id) },
    }),
  );

/** Every payment field of the onboarding with its payment, the team's locale and whether a draft's template changed. */
export const listPayments = (id: string) =>
  call(
    api.GET('/workspace/v1/onboardings/{onboarding_id}/payments', {
      params: { path: ofOnboarding(id) },
    }),
  );

/** Mark as paid: money received outside Stripe, with a note (owners and admins). */
export const markPaid = (id: string, fieldId: string, note: string) =>
  call(
    api.POST('/workspace/v1/onboardings/{onboarding_id}/fields/{field_id}/mark-paid', {
      params: { path: { ...ofOnboarding(id), field_id: fieldId } },
      body: { note },
    }),
  );

/** A draft takes its template's latest version. */
export const refreshTemplate = (id: string) =>
  call(
    api.POST('/workspace/v1/onboardings/{onboarding_id}/refresh-template', {
      params: { path: ofOnboarding(id) },
    }),
  );
