/**
 * The service under the browser tests: real HTTP on a free loopback port whose address is
 * PUBLIC_URL (so the invite email's link is the page the browser opens), a fresh database,
 * the test clock, and every log line of the service kept in memory for the log checks
 * (no client token, no PIN, no 5xx).
 *
 * Teams, templates, clients and onboardings are made as an integration would: the operator
 * API (/admin/v1) and the public API (/api/v1) with an API key.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import { createLogger } from '../../shared/logging/logger.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import {
  adminRequest,
  apiRequest,
  createTeamWithKey,
  createTemplate,
  type TeamInput,
  type TeamWithKey,
  type Template,
  type TemplateInput,
} from '../helpers/tenant.ts';

const FORM_DIST = path.resolve('services/web/client-form/dist/index.html');

export interface FormService extends TestService {
  /** Every log line the service wrote since it started. */
  logLines: string[];
  publicUrl: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The service at info level with its log captured. Rate limits off unless `env` says otherwise. */
export async function startFormService(env: Record<string, string> = {}): Promise<FormService> {
  if (!existsSync(FORM_DIST)) {
    throw new Error(`${FORM_DIST} is missing: build the client form first (npm run build:web)`);
  }
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const logLines: string[] = [];
  const service = await startTestService(
    { PORT: String(port), PUBLIC_URL: publicUrl, RATE_LIMITS: 'off', ...env },
    // The service's own logger (its redaction included), writing into logLines.
    { logger: createLogger('info', { write: (line: string) => void logLines.push(line) }) },
  );
  return Object.assign(service, { logLines, publicUrl });
}

/** The secret-free check of the whole log: none of `secrets` appears in any line. */
export function expectLogFreeOf(service: FormService, secrets: { tokens: string[]; pins: string[] }) {
  expect(service.logLines.length).toBeGreaterThan(0);
  const leaks: string[] = [];
  for (const line of service.logLines) {
    for (const token of secrets.tokens) if (line.includes(token)) leaks.push(`token in: ${line.trim()}`);
    // A PIN is six digits: only a standalone run of them counts (not part of a time or an id).
    for (const pin of secrets.pins) {
      if (new RegExp(`(?<![\\d.])${pin}(?![\\d.])`).test(line)) leaks.push(`PIN in: ${line.trim()}`);
    }
  }
  expect(leaks, leaks.join('\n')).toEqual([]);
}

/** Log lines of answers with a status of 500 or more. */
export function serverErrorsInLog(service: FormService): string[] {
  return service.logLines.filter((line) => {
    const match = /"statusCode":\s*(\d{3})/.exec(line);
    return match !== null && Number(match[1]) >= 500;
  });
}

/** The page's texts in `locale`, as the page itself reads them. */
export function messages(locale: string): Record<string, string> {
  const file = path.resolve(`services/web/client-form/messages/${locale}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
}

/** A real 1x1 PNG image. */
export const SAMPLE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A real one-page PDF. */
export const SAMPLE_PDF = Buffer.from(
  [
    '%PDF-1.4',
    '1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj',
    '2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj',
    '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj',
    'trailer <</Root 1 0 R>>',
    '%%EOF',
    '',
  ].join('\n'),
  'latin1',
);

/** Labels of the fields of EVERY_FIELD_TEMPLATE, by type. */
export const LABELS = {
  heading: 'About your business',
  paragraph: 'Tell us a little about yourself',
  short_text: 'Full name',
  long_text: 'What should we know?',
  email: 'Email address',
  phone: 'Phone number',
  number: 'Number of employees',
  date: 'Date of birth',
  single_choice: 'Preferred contact',
  multiple_choice: 'Services you need',
  dropdown: 'Country of residence',
  checkbox: 'Privacy consent',
  signature: 'Engagement letter',
  payment: 'Set-up fee',
  notes: 'Anything else?',
  file_upload: 'Supporting documents',
} as const;

export const STEP_TITLES = ['Your details', 'Preferences and agreement', 'Documents'] as const;

export const AGREEMENT_TEXT =
  'I engage Northwind Advisors to prepare my accounts for the current year under the terms we discussed.';

/**
 * Every field type of the catalogue (services/templates/contract/field-catalogue.ts, FIELD_TYPES):
 * two required steps, then an optional step with a file field and a note. The payment is
 * optional so the send needs no connected payments.
 */
export const everyFieldTemplate = (): TemplateInput => ({
  name: 'New client intake',
  description: 'What we need before we start',
  vertical: 'accounting',
  steps: [
    {
      title: STEP_TITLES[0],
      sort_order: 1,
      fields: [
        { type: 'heading', label: LABELS.heading, sort_order: 1, config: { text: LABELS.heading } },
        {
          type: 'paragraph',
          label: LABELS.paragraph,
          sort_order: 2,
          config: { text: 'We use these details to set up your account.' },
        },
        {
          type: 'short_text',
          label: LABELS.short_text,
          sort_order: 3,
          is_required: true,
          config: { help_text: 'As it appears on your passport' },
        },
        { type: 'long_text', label: LABELS.long_text, sort_order: 4, is_required: false },
        { type: 'email', label: LABELS.email, sort_order: 5, is_required: true },
        { type: 'phone', label: LABELS.phone, sort_order: 6, is_required: true },
        {
          type: 'number',
          label: LABELS.number,
          sort_order: 7,
          is_required: true,
          config: { min: 0, max: 10000, step: 1 },
        },
        { type: 'date', label: LABELS.date, sort_order: 8, is_required: true },
      ],
    },
    {
      title: STEP_TITLES[1],
      sort_order: 2,
      fields: [
        {
          type: 'single_choice',
          label: LABELS.single_choice,
          sort_order: 1,
          is_required: true,
          config: {
            options: [
              { value: 'email', label: 'Email' },
              { value: 'phone', label: 'Phone' },
            ],
          },
        },
        {
          type: 'multiple_choice',
          label: LABELS.multiple_choice,
          sort_order: 2,
          is_required: true,
          config: {
            options: [
              { value: 'bookkeeping', label: 'Bookkeeping' },
              { value: 'payroll', label: 'Payroll' },
              { value: 'tax', label: 'Tax returns' },
            ],
          },
        },
        {
          type: 'dropdown',
          label: LABELS.dropdown,
          sort_order: 3,
          is_required: true,
          config: {
            options: [
              { value: 'us', label: 'United States' },
              { value: 'de', label: 'Germany' },
              { value: 'jp', label: 'Japan' },
            ],
          },
        },
        {
          type: 'checkbox',
          label: LABELS.checkbox,
          sort_order: 4,
          is_required: true,
          config: { statement: 'I agree that my data is used to provide the services.' },
        },
        {
          type: 'signature',
          label: LABELS.signature,
          sort_order: 5,
          is_required: true,
          config: { agreement_text: AGREEMENT_TEXT, is_sample_text: false },
        },
        {
          type: 'payment',
          label: LABELS.payment,
          sort_order: 6,
          is_required: false,
          config: { amount_cents: 15000, currency: 'USD', description: 'One-time set-up fee' },
        },
      ],
    },
    {
      title: STEP_TITLES[2],
      sort_order: 3,
      is_optional: true,
      fields: [
        {
          type: 'file_upload',
          label: LABELS.file_upload,
          sort_order: 1,
          is_required: false,
          config: { accept: ['application/pdf', 'image/png'], max_files: 3, max_size_mb: 5 },
        },
        { type: 'short_text', label: LABELS.notes, sort_order: 2, is_required: false },
      ],
    },
  ],
});

export interface FormTenant extends TeamWithKey {
  template: Template;
}

/** A team (display name, locale, date format, time zone) with an API key and a template. */
export async function createFormTenant(
  service: FormService,
  team: TeamInput = {},
  template: TemplateInput = everyFieldTemplate(),
): Promise<FormTenant> {
  const tenant = await createTeamWithKey(service, {
    email_sender_name: 'Northwind Advisors',
    locale: 'en-US',
    date_format: 'MM/DD/YYYY',
    timezone: 'America/New_York',
    ...team,
  });
  const created = await createTemplate(service, tenant.teamId, template);
  return { ...tenant, template: created };
}

function ok<Body>(answer: { status: number; body: Body }, status: number, what: string): Body {
  if (answer.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

export interface SentForm {
  clientId: string;
  onboardingId: string;
  token: string;
  /** The link of the invite email: ${PUBLIC_URL}/f/<token>. */
  link: string;
  pin: string | undefined;
}

let clientCounter = 0;

/** A client, an onboarding of the tenant's template and its send; the link is read from the outbox. */
export async function sendForm(
  service: FormService,
  tenant: FormTenant,
  options: {
    client?: Record<string, unknown>;
    pin?: string;
    due_date?: string;
    expires_at?: string;
  } = {},
): Promise<SentForm> {
  const n = ++clientCounter;
  const client = ok(
    await apiRequest(service, tenant.apiKey, 'POST', '/clients', {
      body: { name: `Avery Client ${n}`, email: `avery.client${n}@example.com`, ...options.client },
    }),
    201,
    'create client',
  ).client as { id: string };
  const onboarding = ok(
    await apiRequest(service, tenant.apiKey, 'POST', '/onboardings', {
      body: {
        template_id: tenant.template.id,
        client_id: client.id,
        ...(options.due_date ? { due_date: options.due_date } : {}),
        ...(options.expires_at ? { expires_at: options.expires_at } : {}),
      },
    }),
    201,
    'create onboarding',
  ).onboarding as { id: string };
  ok(
    await apiRequest(service, tenant.apiKey, 'POST', `/onboardings/${onboarding.id}/send`, {
      body: options.pin ? { pin: options.pin } : {},
    }),
    200,
    'send',
  );
  const emails = ok(await adminRequest(service, 'GET', `/teams/${tenant.teamId}/emails`), 200, 'emails')
    .emails as { kind: string; onboarding_id: string; text: string }[];
  const invite = emails.find((email) => email.kind === 'invite' && email.onboarding_id === onboarding.id);
  if (!invite) throw new Error(`no invite email for onboarding ${onboarding.id}`);
  const escaped = service.publicUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`${escaped}/f/([0-9a-f]{64})`).exec(invite.text);
  if (!match) throw new Error(`the invite email has no ${service.publicUrl}/f/<token> link:\n${invite.text}`);
  return {
    clientId: client.id,
    onboardingId: onboarding.id,
    token: match[1]!,
    link: match[0],
    pin: options.pin,
  };
}

/** The types of the onboarding's events in the public events feed, oldest first. */
export async function eventTypes(service: FormService, tenant: FormTenant, onboardingId: string) {
  const feed = ok(await apiRequest(service, tenant.apiKey, 'GET', '/events?limit=100'), 200, 'events');
  return (feed.events as { type: string; onboarding_id: string | null }[])
    .filter((event) => event.onboarding_id === onboardingId)
    .map((event) => event.type)
    .reverse();
}

/** The template's field id of `label` (the first step that has it). */
export function fieldId(template: Template, label: string): string {
  for (const step of template.template_steps) {
    const field = step.template_fields.find((candidate) => candidate.label === label);
    if (field) return field.id;
  }
  throw new Error(`no field labelled ${label}`);
}

/** A short form of simple fields for the keyboard and autosave tests. */
export const simpleTemplate = (): TemplateInput => ({
  name: 'Quick intake',
  steps: [
    {
      title: 'Contact',
      sort_order: 1,
      fields: [
        { type: 'short_text', label: 'Full name', sort_order: 1, is_required: true },
        { type: 'email', label: 'Email address', sort_order: 2, is_required: true },
        {
          type: 'single_choice',
          label: 'Preferred contact',
          sort_order: 3,
          is_required: true,
          config: { options: ['Email', 'Phone'] },
        },
        { type: 'long_text', label: 'Notes', sort_order: 4, is_required: false },
        {
          type: 'checkbox',
          label: 'Privacy consent',
          sort_order: 5,
          is_required: true,
          config: { statement: 'I agree that my data is used to provide the services.' },
        },
      ],
    },
    {
      title: 'Sign the letter',
      sort_order: 2,
      fields: [
        {
          type: 'signature',
          label: 'Engagement letter',
          sort_order: 1,
          is_required: true,
          config: { agreement_text: AGREEMENT_TEXT, is_sample_text: false },
        },
      ],
    },
  ],
});
