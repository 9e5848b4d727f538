import { openTextColumns } from '../../shared/privacy/sealed-columns.ts';
import { randomUUID } from 'node:crypto';
import { inCommandTransaction, type CommandMetadata } from '../../shared/commands/handle-command.ts';
import { runOnboardingCommand } from '../../services/onboardings/onboarding-unit-of-work.ts';
import type { OnboardingCommand, OnboardingState } from '../../services/onboardings/decider/index.ts';
import { hashClientToken } from '../../services/onboardings/link-secrets.ts';
import type { TestService } from '../helpers/service.ts';
import {
  adminRequest,
  apiRequest,
  createTeamWithKey,
  createTemplate,
  type TeamInput,
  type TemplateInput,
  type TeamWithKey,
} from '../helpers/tenant.ts';
import { tokenFromLink } from '../helpers/client-link.ts';

/**
 * Helpers of the onboarding integration tests: a team with a key, a client and a template,
 * onboarding requests through HTTP, and portal moves run directly through the unit of work
 * the portal and operator routes use.
 */

export interface Tenant extends TeamWithKey {
  clientId: string;
  templateId: string;
}

let clientCounter = 0;

export async function createClient(service: TestService, tenant: TeamWithKey, name = 'Ada Lovelace') {
  const answer = await apiRequest(service, tenant.apiKey, 'POST', '/clients', {
    body: { name, email: `client${++clientCounter}-${randomUUID().slice(0, 8)}@example.com` },
  });
  if (answer.status !== 201)
    throw new Error(`create client: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.client as { id: string; name: string; email: string };
}

/** A team (plan pro unless given) with an all-scopes key, one client and one template (two steps). */
export async function createTenant(
  service: TestService,
  options: TeamInput & { template?: TemplateInput } = {},
): Promise<Tenant> {
  const { template, ...teamInput } = options;
  const tenant = await createTeamWithKey(service, teamInput);
  const client = await createClient(service, tenant);
  const created = await createTemplate(service, tenant.teamId, template ?? twoStepTemplate());
  return { ...tenant, clientId: client.id, templateId: created.id };
}

export const twoStepTemplate = (): TemplateInput => ({
  name: 'Tax intake',
  description: 'Everything we need for your return',
  vertical: 'accounting',
  settings: { theme: 'blue' },
  translations: { 'fr-FR': { name: 'Dossier fiscal' } },
  steps: [
    {
      title: 'About you',
      sort_order: 1,
      fields: [{ type: 'short_text', label: 'Full name', sort_order: 1, is_required: true }],
    },
    {
      title: 'Extras',
      sort_order: 2,
      is_optional: true,
      fields: [{ type: 'short_text', label: 'Notes', sort_order: 1, is_required: false }],
    },
  ],
});

export function onboardingRequest(
  service: TestService,
  tenant: { apiKey: string },
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  return apiRequest(service, tenant.apiKey, method, `/onboardings${path}`, options);
}

export async function createOnboarding(
  service: TestService,
  tenant: Tenant,
  body: Record<string, unknown> = {},
) {
  const answer = await onboardingRequest(service, tenant, 'POST', '', {
    body: { template_id: tenant.templateId, client_id: tenant.clientId, ...body },
  });
  if (answer.status !== 201)
    throw new Error(`create onboarding: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.onboarding as { id: string; token: string; [key: string]: unknown };
}

export async function sendOnboarding(service: TestService, tenant: Tenant, id: string, body?: unknown) {
  return onboardingRequest(service, tenant, 'POST', `/${id}/send`, body === undefined ? {} : { body });
}

export async function getOnboarding(service: TestService, tenant: Tenant, id: string) {
  const answer = await onboardingRequest(service, tenant, 'GET', `/${id}`);
  return answer.body.onboarding;
}

/** The invite emails of an onboarding, oldest first. */
export async function invites(service: TestService, onboardingId: string) {
  const { rows } = await service.database.pool.query<{
    id: string;
    team_id: string;
    kind: string;
    to: string;
    from_name: string;
    subject: string;
    text: string;
    status: string;
    created_at: Date;
  }>(`select * from mail_outbox where onboarding_id = $1 order by created_at, seq`, [onboardingId]);
  // Sealed with the client's key at rest: read as the mailer reads them.
  const opened = await openTextColumns(service.context.vault, rows, ['to', 'subject', 'text']);
  return opened.map((row) => ({
    ...row,
    to: row.to ?? '',
    subject: row.subject ?? '',
    text: row.text ?? '',
  }));
}

/**
 * The client token of the newest invite: from its link while it is queued; once it was
 * sent the text keeps only a reference, and the operator's link answers the token.
 */
export async function latestToken(service: TestService, onboardingId: string): Promise<string> {
  const mails = await invites(service, onboardingId);
  const token =
    tokenFromLink(mails.at(-1)?.text) ??
    (await adminRequest(service, 'GET', `/onboardings/${onboardingId}/link`)).body?.token;
  if (!token) throw new Error('no invite with a link');
  return token;
}

export async function timers(service: TestService, onboardingId: string) {
  const { rows } = await service.database.pool.query<{
    kind: string;
    key: string;
    due_at: Date;
    status: string;
  }>(
    'select kind, key, due_at, status from onboarding_timers where onboarding_id = $1 order by due_at, key',
    [onboardingId],
  );
  return rows;
}

export async function streamEvents(service: TestService, onboardingId: string) {
  return service.context.eventStore.readStream(`onboarding-${onboardingId}`);
}

const metadata = (): CommandMetadata => ({
  command_id: randomUUID(),
  request_id: randomUUID(),
  idempotency_key: null,
  api_key_id: null,
  causation_id: null,
  correlation_id: null,
});

/** Runs a command on the aggregate as the portal and operator routes will (same unit of work). */
export async function runCommand(
  service: TestService,
  onboardingId: string,
  build: (now: Date, state: OnboardingState) => OnboardingCommand,
) {
  const { context } = service;
  const outcome = await inCommandTransaction(context, (tx) =>
    runOnboardingCommand(context, tx, onboardingId, (state) => build(context.clock.now(), state), metadata()),
  );
  if (outcome.position !== undefined) await context.projections.waitForPosition(outcome.position);
  return outcome;
}

export const openLink = (service: TestService, onboardingId: string, token: string) =>
  runCommand(service, onboardingId, (now) => ({
    type: 'OpenLink',
    data: { token_hash: hashClientToken(token) },
    metadata: { now },
  }));

export const saveAnswer = (service: TestService, onboardingId: string, token: string, fieldId: string) =>
  runCommand(service, onboardingId, (now) => ({
    type: 'SaveAnswer',
    data: { token_hash: hashClientToken(token), field_id: fieldId, response_id: randomUUID(), value: 'x' },
    metadata: { now },
  }));

export const submitStep = (service: TestService, onboardingId: string, token: string, stepId: string) =>
  runCommand(service, onboardingId, (now) => ({
    type: 'SubmitStep',
    data: { token_hash: hashClientToken(token), step_id: stepId },
    metadata: { now },
  }));

export const archive = (service: TestService, onboardingId: string) =>
  runCommand(service, onboardingId, (now) => ({ type: 'ArchiveOnboarding', data: {}, metadata: { now } }));

export const expire = (service: TestService, onboardingId: string) =>
  runCommand(service, onboardingId, (now) => ({ type: 'ExpireOnboarding', data: {}, metadata: { now } }));

/**
 * A shortcut past the client erasure process: marks the client erased in the
 * clients read model (what the erasure leaves behind) and records the erasure on the onboarding.
 */
export async function eraseClient(service: TestService, clientId: string, onboardingIds: string[] = []) {
  await service.database.pool.query(
    'update clients set erased_at = now(), name = null, email = null where id = $1',
    [clientId],
  );
  for (const id of onboardingIds) {
    await runCommand(service, id, (now) => ({ type: 'EraseClient', data: {}, metadata: { now } }));
  }
}

/** Template ids of a created template, by step and field order. */
export async function templateIds(service: TestService, tenant: TeamWithKey, templateId: string) {
  const answer = await apiRequest(service, tenant.apiKey, 'GET', `/templates/${templateId}`);
  const steps = answer.body.template.template_steps as {
    id: string;
    template_fields: { id: string }[];
  }[];
  return steps.map((step) => ({ stepId: step.id, fieldIds: step.template_fields.map((field) => field.id) }));
}
