import { randomUUID } from 'node:crypto';
import { registerSecrets } from '../helpers/run-log.ts';
import type { TestService } from '../helpers/service.ts';
import {
  adminRequest,
  apiRequest,
  createTeamWithKey,
  createTemplate,
  request,
  type HttpAnswer,
  type TeamInput,
  type TeamWithKey,
  type Template,
  type TemplateInput,
} from '../helpers/tenant.ts';

/**
 * Helpers of the portal, responses, operator-onboarding, erasure, scheduler and journey
 * tests: everything goes through HTTP as a client of the service would (public API with a
 * key, portal with the client token, operator API with the admin token).
 */

export interface FormIds {
  steps: { about: string; documents: string; extras: string };
  fields: {
    fullName: string;
    nickname: string;
    idDocument: string;
    agreement: string;
    deposit: string;
    notes: string;
  };
}

/**
 * Three steps: About you (Full name required, Nickname optional); Documents (an ID
 * document file (PDF, PNG, JPEG or plain text), required; a signature with real agreement text, required; an optional
 * payment); Extras (optional step, Notes).
 */
export const formTemplate = (): TemplateInput => ({
  name: 'Client onboarding pack',
  description: 'What we need to start',
  vertical: 'accounting',
  steps: [
    {
      title: 'About you',
      sort_order: 1,
      fields: [
        { type: 'short_text', label: 'Full name', sort_order: 1, is_required: true },
        { type: 'short_text', label: 'Nickname', sort_order: 2, is_required: false },
      ],
    },
    {
      title: 'Documents',
      sort_order: 2,
      fields: [
        {
          type: 'file_upload',
          label: 'ID document',
          sort_order: 1,
          is_required: true,
          config: { accept: ['application/pdf', 'image/png', 'image/jpeg', 'text/plain'] },
        },
        {
          type: 'signature',
          label: 'Engagement letter',
          sort_order: 2,
          is_required: true,
          config: { agreement_text: 'I agree to the engagement terms.', is_sample_text: false },
        },
        {
          type: 'payment',
          label: 'Deposit',
          sort_order: 3,
          is_required: false,
          config: { amount_cents: 5000, currency: 'USD' },
        },
      ],
    },
    {
      title: 'Extras',
      sort_order: 3,
      is_optional: true,
      fields: [{ type: 'short_text', label: 'Notes', sort_order: 1, is_required: false }],
    },
  ],
});

export function formIds(template: Template): FormIds {
  const byTitle = (title: string) => template.template_steps.find((step) => step.title === title)!;
  const field = (title: string, label: string) =>
    byTitle(title).template_fields.find((candidate) => candidate.label === label)!.id;
  return {
    steps: {
      about: byTitle('About you').id,
      documents: byTitle('Documents').id,
      extras: byTitle('Extras').id,
    },
    fields: {
      fullName: field('About you', 'Full name'),
      nickname: field('About you', 'Nickname'),
      idDocument: field('Documents', 'ID document'),
      agreement: field('Documents', 'Engagement letter'),
      deposit: field('Documents', 'Deposit'),
      notes: field('Extras', 'Notes'),
    },
  };
}

export interface Tenant extends TeamWithKey {
  template: Template;
  ids: FormIds;
}

export async function createTenant(
  service: TestService,
  options: TeamInput & { template?: TemplateInput } = {},
): Promise<Tenant> {
  const { template, ...teamInput } = options;
  const tenant = await createTeamWithKey(service, teamInput);
  const created = await createTemplate(service, tenant.teamId, template ?? formTemplate());
  return { ...tenant, template: created, ids: formIds(created) };
}

let clientCounter = 0;

export async function createClient(
  service: TestService,
  tenant: TeamWithKey,
  input: { name?: string; email?: string; [key: string]: unknown } = {},
) {
  const n = ++clientCounter;
  const answer = await apiRequest(service, tenant.apiKey, 'POST', '/clients', {
    body: { name: `Client ${n}`, email: `client${n}-${randomUUID().slice(0, 8)}@example.com`, ...input },
  });
  if (answer.status !== 201)
    throw new Error(`create client: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.client as { id: string; name: string; email: string };
}

function expectOk<Body>(answer: HttpAnswer<Body>, status: number, what: string): Body {
  if (answer.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

export async function createOnboarding(
  service: TestService,
  tenant: Tenant,
  clientId: string,
  body: Record<string, unknown> = {},
) {
  const answer = await apiRequest(service, tenant.apiKey, 'POST', '/onboardings', {
    body: { template_id: tenant.template.id, client_id: clientId, ...body },
  });
  registerSecrets(answer.body?.onboarding?.token);
  return expectOk(answer, 201, 'create onboarding').onboarding as {
    id: string;
    token: string;
    status: string;
  };
}

export async function send(service: TestService, tenant: Tenant, onboardingId: string, body?: unknown) {
  const answer = await apiRequest(service, tenant.apiKey, 'POST', `/onboardings/${onboardingId}/send`, {
    body: body ?? {},
  });
  return expectOk(answer, 200, 'send onboarding');
}

/** GET /admin/v1/onboardings/:id/link */
export const operatorLink = (service: TestService, onboardingId: string) =>
  adminRequest<{ token: string | null; url: string | null; pin_required: boolean }>(
    service,
    'GET',
    `/onboardings/${onboardingId}/link`,
  );

/** Creates and sends an onboarding for a new client; answers the clear token of its link. */
export async function sentOnboarding(
  service: TestService,
  tenant: Tenant,
  options: {
    client?: { name?: string; email?: string };
    create?: Record<string, unknown>;
    send?: unknown;
  } = {},
) {
  const client = await createClient(service, tenant, options.client);
  const onboarding = await createOnboarding(service, tenant, client.id, options.create);
  await send(service, tenant, onboarding.id, options.send);
  const link = expectOk(await operatorLink(service, onboarding.id), 200, 'operator link');
  if (!link.token) throw new Error('a sent onboarding has no active token');
  registerSecrets(link.token);
  return { client, onboardingId: onboarding.id, token: link.token };
}

/** A request to /portal/v1/onboardings/:token + path. */
export function portal<Body = any>(
  service: TestService,
  token: string,
  method: string,
  path = '',
  options: { body?: unknown; pin?: string; headers?: Record<string, string> } = {},
) {
  return request<Body>(service, method, `/portal/v1/onboardings/${token}${path}`, {
    headers: {
      ...(options.pin === undefined ? {} : { 'x-onboarding-pin': options.pin }),
      ...options.headers,
    },
    body: options.body,
  });
}

/** A multipart upload of one file to a field. */
export async function uploadFile(
  service: TestService,
  token: string,
  fieldId: string,
  file: { name: string; type?: string; content: Buffer | string },
  pin?: string,
): Promise<HttpAnswer> {
  const form = new FormData();
  form.append(
    'file',
    new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)], {
      type: file.type ?? 'application/pdf',
    }),
    file.name,
  );
  const response = await fetch(`${service.url}/portal/v1/onboardings/${token}/fields/${fieldId}/files`, {
    method: 'POST',
    headers: pin === undefined ? {} : { 'x-onboarding-pin': pin },
    body: form,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body };
}

/** Answers every required field and submits every required step; the onboarding ends completed. */
export async function completeForm(service: TestService, tenant: Tenant, token: string, fullName: string) {
  const { fields, steps } = tenant.ids;
  expectOk(
    await portal(service, token, 'PUT', `/answers/${fields.fullName}`, { body: { value: fullName } }),
    200,
    'answer',
  );
  expectOk(await portal(service, token, 'POST', `/steps/${steps.about}/submit`), 200, 'submit about');
  expectOk(
    await uploadFile(service, token, fields.idDocument, { name: 'passport.pdf', content: 'PDF' }),
    201,
    'upload',
  );
  expectOk(
    await portal(service, token, 'POST', `/fields/${fields.agreement}/signature`, {
      body: { signer_name: fullName, signer_email: 'signer@example.com' },
    }),
    201,
    'sign',
  );
  return expectOk(
    await portal(service, token, 'POST', `/steps/${steps.documents}/submit`),
    200,
    'submit documents',
  );
}

export const drain = (service: TestService) => adminRequest(service, 'POST', '/work/drain');
export const advanceClock = (service: TestService, seconds: number) =>
  adminRequest(service, 'POST', '/clock/advance', { seconds });
