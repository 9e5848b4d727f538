import type { TestService } from '../helpers/service.ts';
import { adminRequest, createTeamWithKey } from '../helpers/tenant.ts';
import {
  createClient,
  createOnboarding,
  createTenant,
  sentOnboarding,
} from '../integration/portal-fixtures.ts';
import type { KnownIds } from './schemathesis-config.ts';

/**
 * What the run starts from: a tenant (the API key schemathesis uses) with the portal
 * fixtures' three-step template, a client, a draft onboarding and a sent one (its portal
 * token); and a second team for the operator routes, with a client and an automation
 * rule, so operator requests that change a team never take API access from the tenant.
 */
export async function seedKnownIds(service: TestService): Promise<{ apiKey: string; ids: KnownIds }> {
  const tenant = await createTenant(service);
  const client = await createClient(service, tenant);
  const draft = await createOnboarding(service, tenant, client.id);
  const sent = await sentOnboarding(service, tenant);

  const operatorTeam = await createTeamWithKey(service);
  const operatorClient = await createClient(service, operatorTeam);
  const rule = await adminRequest(service, 'POST', `/teams/${operatorTeam.teamId}/automation-rules`, {
    name: 'Thank you',
    trigger: 'onboarding.completed',
    action: { type: 'send_email', subject: 'Thank you', body: 'Thank you, {{client_name}}.' },
  });
  if (rule.status !== 201) throw new Error(`create rule: ${rule.status} ${JSON.stringify(rule.body)}`);

  const steps = tenant.template.template_steps;
  return {
    apiKey: tenant.apiKey,
    ids: {
      teamIds: [operatorTeam.teamId],
      resourceIds: [client.id, sent.client.id, tenant.template.id, draft.id, sent.onboardingId],
      clientIds: [client.id, sent.client.id, operatorClient.id],
      templateIds: [tenant.template.id],
      onboardingIds: [draft.id, sent.onboardingId],
      ruleIds: [rule.body.rule.id],
      tokens: [sent.token],
      fieldIds: steps.flatMap((step) => step.template_fields.map((field) => field.id)),
      stepIds: steps.map((step) => step.id),
    },
  };
}
