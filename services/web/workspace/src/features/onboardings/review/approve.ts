import { call } from '../../../../../shared/api/client.ts';
import { api } from '../../../api.ts';

/** Approve all / approve step: the answers the member sees waiting, approved once each. */
export const approveAnswers = (onboardingId: string, fieldIds: string[]) =>
  call(
    api.POST('/workspace/v1/onboardings/{onboarding_id}/answers/approve', {
      params: { path: { onboarding_id: onboardingId } },
      body: { field_ids: fieldIds },
    }),
  );
