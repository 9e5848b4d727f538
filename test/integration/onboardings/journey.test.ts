import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  adminRequest,
  apiRequest,
  createTeamWithKey,
  createTemplate,
  request,
} from '../../helpers/tenant.ts';
import { tokenFromLink } from '../../helpers/client-link.ts';

/**
 * The whole client journey end to end, over real HTTP, as the three parties see it: the
 * team's integration (public API with a key), the client (the link in its invite email,
 * then the portal) and the operator (emails). Rate limits stay on.
 */

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

it('create client, create onboarding, send, open, answer, submit, complete; the feed shows it in order', async () => {
  const team = await createTeamWithKey(service, { plan: 'pro', email_sender_name: 'Northwind Advisors' });
  const template = await createTemplate(service, team.teamId, {
    name: 'New client intake',
    steps: [
      {
        title: 'About you',
        sort_order: 1,
        fields: [{ type: 'short_text', label: 'Full name', sort_order: 1, is_required: true }],
      },
    ],
  });
  const stepId = template.template_steps[0]!.id;
  const fieldId = template.template_steps[0]!.template_fields[0]!.id;
  const api = (method: string, path: string, body?: unknown) =>
    apiRequest(service, team.apiKey, method, path, { body });

  // The team's integration: a client, an onboarding, a send.
  const client = await api('POST', '/clients', {
    name: 'Olivia Journey',
    email: 'olivia.journey@example.com',
  });
  expect(client.status).toBe(201);
  const created = await api('POST', '/onboardings', {
    template_id: template.id,
    client_id: client.body.client.id,
  });
  expect(created.status).toBe(201);
  const onboardingId: string = created.body.onboarding.id;
  expect(created.body.onboarding.status).toBe('draft');
  const sent = await api('POST', `/onboardings/${onboardingId}/send`, {});
  expect(sent.status).toBe(200);
  expect(sent.body).toEqual({
    success: true,
    queued: true,
    command_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
  });
  expect((await api('GET', `/onboardings/${onboardingId}`)).body.onboarding.status).toBe('sent');

  // The client gets the invite email and follows its link.
  const emails = await adminRequest(service, 'GET', `/teams/${team.teamId}/emails`);
  const invite = emails.body.emails.find((email: { kind: string }) => email.kind === 'invite');
  expect(invite).toMatchObject({
    to: 'olivia.journey@example.com',
    from_name: 'Northwind Advisors',
    onboarding_id: onboardingId,
  });
  const token = tokenFromLink(invite.text);
  expect(token).toBeDefined();
  expect((await adminRequest(service, 'GET', `/onboardings/${onboardingId}/link`)).body.token).toBe(token);
  const portal = (method: string, path = '', body?: unknown) =>
    request(service, method, `/portal/v1/onboardings/${token}${path}`, { body });

  const opened = await portal('GET');
  expect(opened.status).toBe(200);
  expect(opened.body.onboarding).toMatchObject({ id: onboardingId, status: 'in_progress', progress_pct: 0 });
  expect(opened.body.onboarding.template_snapshot.steps[0].fields[0]).toMatchObject({
    id: fieldId,
    label: 'Full name',
  });

  const answered = await portal('PUT', `/answers/${fieldId}`, { value: 'Olivia Journey' });
  expect(answered.status).toBe(200);
  expect(answered.body.response).toMatchObject({
    field_id: fieldId,
    value: 'Olivia Journey',
    status: 'draft',
  });

  const submitted = await portal('POST', `/steps/${stepId}/submit`);
  expect(submitted.status).toBe(200);
  expect(submitted.body.onboarding).toMatchObject({ status: 'completed', progress_pct: 100 });
  expect(submitted.body.onboarding.responses).toEqual([
    expect.objectContaining({ field_id: fieldId, value: 'Olivia Journey', status: 'submitted' }),
  ]);

  // The team sees the result.
  const onboarding = await api('GET', `/onboardings/${onboardingId}`);
  expect(onboarding.body.onboarding).toMatchObject({ status: 'completed', progress_pct: 100 });
  const responses = await api('GET', `/responses?onboarding_id=${onboardingId}`);
  expect(responses.body).toMatchObject({ total: 1, page: 1, limit: 50 });
  expect(responses.body.responses[0]).toMatchObject({
    id: answered.body.response.id,
    field_id: fieldId,
    value: 'Olivia Journey',
    status: 'submitted',
    rejection_reason: null,
  });

  // The events feed, newest first: sent, started, response.submitted and completed in order.
  const feed = await api('GET', '/events?limit=100');
  expect(feed.status).toBe(200);
  const ofOnboarding = feed.body.events.filter(
    (event: { onboarding_id: string }) => event.onboarding_id === onboardingId,
  );
  expect(ofOnboarding.map((event: { type: string }) => event.type)).toEqual([
    'onboarding.completed',
    'response.submitted',
    'onboarding.started',
    'onboarding.sent',
    'onboarding_created',
  ]);
  for (const type of [
    'onboarding.sent',
    'onboarding.started',
    'response.submitted',
    'onboarding.completed',
  ]) {
    const filtered = await api('GET', `/events?type=${type}`);
    expect(
      filtered.body.events.map((event: { onboarding_id: string }) => event.onboarding_id),
      type,
    ).toEqual([onboardingId]);
  }
  expect((await adminRequest(service, 'POST', '/work/drain')).status).toBe(200);
});
