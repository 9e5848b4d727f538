import type { TestService } from '../../helpers/service.ts';
import { createApiKey, createTemplate, type Team } from '../../helpers/tenant.ts';
import {
  completeForm,
  formIds,
  formTemplate,
  portal,
  sentOnboarding,
  type Tenant,
} from '../portal-fixtures.ts';
import { Browser, signUp } from '../workspace-fixtures.ts';

/**
 * The review part of the rebuild scenario (rebuild-domain-fixtures.ts), through HTTP: a
 * team signed up in the workspace completes an onboarding; its owner rejects one answer,
 * asks for changes to another and approves a third; the client changes the rejected
 * answer and resubmits (one reviewed version kept apart in the responses); the owner
 * approves it. Every review event type lands in the log.
 */
export async function produceReviewLog(service: TestService, email: string): Promise<void> {
  const { owner, teamId } = await signUp(service, email, 'a long rebuild reviewer passphrase', 'Reviewers');
  const key = await createApiKey(service, teamId);
  const template = await createTemplate(service, teamId, formTemplate());
  const tenant: Tenant = { ...key, teamId, team: { id: teamId } as Team, template, ids: formIds(template) };
  const { onboardingId, token } = await sentOnboarding(service, tenant);
  await completeForm(service, tenant, token, 'Ada Lovelace');
  const { fields, steps } = tenant.ids;
  const review = async (who: Browser, fieldId: string, body: unknown) => {
    const answer = await who.call(
      'POST',
      `/workspace/v1/onboardings/${onboardingId}/answers/${fieldId}/review`,
      body,
    );
    if (answer.status !== 200) throw new Error(`review: ${answer.status} ${JSON.stringify(answer.body)}`);
  };
  const expect200 = (answer: { status: number; body: unknown }, what: string) => {
    if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  };
  await review(owner, fields.fullName, { decision: 'reject', reason: 'Your full legal name, please' });
  await review(owner, fields.idDocument, { decision: 'approve' });
  await review(owner, fields.agreement, { decision: 'request_changes', reason: 'Sign once more' });
  expect200(
    await portal(service, token, 'PUT', `/answers/${fields.fullName}`, { body: { value: 'Ada King' } }),
    'change',
  );
  expect200(
    await portal(service, token, 'PUT', `/answers/${fields.fullName}`, {
      body: { value: 'Ada King Lovelace' },
    }),
    'change again',
  );
  expect200(await portal(service, token, 'POST', `/steps/${steps.about}/submit`), 'resubmit');
  await review(owner, fields.fullName, { decision: 'approve' });
}
