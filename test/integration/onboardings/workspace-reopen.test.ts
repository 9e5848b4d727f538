import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { createApiKey, createTemplate, type Team } from '../../helpers/tenant.ts';
import { type Browser, signUp } from '../workspace-fixtures.ts';
import {
  completeForm,
  formIds,
  formTemplate,
  portal,
  sentOnboarding,
  type Tenant,
} from '../portal-fixtures.ts';
import { invites, latestToken } from '../onboardings-fixtures.ts';
import { ERROR_TEXTS } from '../../../services/onboardings/decider/rules.ts';

/*
 * A reopen that cannot get stuck (decision 0077), over real HTTP and PostgreSQL: with every
 * answer approved a plain reopen is refused in words (409 nothing_to_reopen) and changes
 * nothing; unlocking an approved answer reopens it with the team's reason in the email; the
 * client changes that answer, submits its step and the onboarding completes again.
 */

let service: TestService;
let tenant: Tenant;
let member: Browser;
let onboardingId: string;

const path = (suffix = '') => `/workspace/v1/onboardings/${onboardingId}${suffix}`;
const onboarding = async () => (await member.call('GET', path())).body.onboarding;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  const team = await signUp(service, 'reopen-owner@example.com', 'a long reopen passphrase');
  member = team.owner;
  const key = await createApiKey(service, team.teamId);
  const template = await createTemplate(service, team.teamId, formTemplate());
  tenant = {
    ...key,
    teamId: team.teamId,
    team: { id: team.teamId } as Team,
    template,
    ids: formIds(template),
  };
  let token: string;
  ({ onboardingId, token } = await sentOnboarding(service, tenant));
  await completeForm(service, tenant, token, 'Ada Lovelace');
  const listed = await member.call('GET', path('/answers'));
  for (const { field_id } of listed.body.answers as Array<{ field_id: string }>) {
    const approved = await member.call('POST', path(`/answers/${field_id}/review`), { decision: 'approve' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  }
}, 90_000);
afterAll(async () => {
  await service?.stop();
});

describe('reopening an onboarding whose answers are all approved', () => {
  it('is refused in words (409 nothing_to_reopen) unless approved answers are unlocked; nothing changes', async () => {
    const before = await onboarding();
    expect(before).toMatchObject({ status: 'completed' });
    const mailsBefore = (await invites(service, onboardingId)).length;
    for (const body of [{}, { unlock_approved: [] }, { reason: 'Please check again' }]) {
      const refused = await member.call('POST', path('/reopen'), body);
      expect(refused.status, JSON.stringify(body)).toBe(409);
      expect(refused.body).toMatchObject({
        code: 'nothing_to_reopen',
        error: ERROR_TEXTS.nothing_to_reopen,
      });
    }
    const unknown = await member.call('POST', path('/reopen'), { unlock_approved: ['no-such-field'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('invalid_body');
    expect(await onboarding()).toMatchObject({ status: 'completed', send_count: before.send_count });
    expect(await invites(service, onboardingId)).toHaveLength(mailsBefore);
  });

  it('unlocking an approved answer reopens it: the email says why, the client changes it and the onboarding completes', async () => {
    const { fields, steps } = tenant.ids;
    const reopened = await member.call('POST', path('/reopen'), {
      unlock_approved: [fields.fullName],
      reason: 'Your full name is missing a part',
    });
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(reopened.body.onboarding).toMatchObject({ status: 'sent', link: 'active' });

    const mail = (await invites(service, onboardingId)).at(-1)!;
    expect(mail.kind).toBe('invite');
    expect(mail.text).toContain('Your full name is missing a part');
    const token = await latestToken(service, onboardingId);

    // The unlocked answer and an optional one left empty can change; an approved one stays locked.
    const optional = await portal(service, token, 'PUT', `/answers/${fields.nickname}`, {
      body: { value: 'Ada' },
    });
    expect(optional.status).toBe(200);
    const changed = await portal(service, token, 'PUT', `/answers/${fields.fullName}`, {
      body: { value: 'Augusta Ada King' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const opened = await portal(service, token, 'GET');
    expect(opened.body.onboarding.status).toBe('in_progress');
    expect(opened.body.onboarding.submitted_step_ids).toEqual([steps.documents]);
    const reviews = opened.body.onboarding.reviews as Array<{ field_id: string; status: string }>;
    expect(reviews.find((review) => review.field_id === fields.fullName)).toBeUndefined();
    expect(reviews.find((review) => review.field_id === fields.agreement)?.status).toBe('approved');

    const submitted = await portal(service, token, 'POST', `/steps/${steps.about}/submit`);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.onboarding).toMatchObject({ status: 'completed', progress_pct: 100 });
    expect(await onboarding()).toMatchObject({ status: 'completed', progress_pct: 100 });

    // The team sees the new version beside the approved one.
    const listed = await member.call('GET', path('/answers'));
    const fullName = (listed.body.answers as Array<{ field_id: string; value: unknown }>).find(
      (answer) => answer.field_id === fields.fullName,
    );
    expect(fullName?.value).toBe('Augusta Ada King');
  });
});
