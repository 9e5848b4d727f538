import './bench-kek.ts';
import { randomUUID } from 'node:crypto';
import type { ClientCreated, Sealed } from '../../services/clients/client-events.ts';
import type { OnboardingEvent } from '../../services/onboardings/onboarding-events.ts';
import type { TemplateSnapshot } from '../../services/onboardings/onboarding-events.ts';
import type { Pool } from '../../shared/db/pool.ts';
import type { NewEvent } from '../../shared/event-store/event-store.ts';
import { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';

/**
 * The log the service writes, in miniature: per onboarding, its client's `client.created`
 * (one-event client stream) and an onboarding stream of 8 events — created (with its
 * template snapshot), sent, started, 3 autosaved answers, one step submitted, completed.
 * The event types and data shapes are the domain's own (type-checked against
 * shared/domain), with the metadata every event carries. Client personal fields are
 * sealed with real per-subject keys (shared/privacy/personal-data-vault.ts) when
 * `personas` are given, so projections open them as they would in production; a small
 * set of subjects is reused across clients to keep generation cheap.
 */
export interface GeneratedStream {
  streamId: string;
  events: NewEvent[];
}

export const EVENTS_PER_ONBOARDING = 9;

const STEP_ID = '11111111-2222-4333-8444-555555555555';
const FIELD_IDS = [
  'aaaaaaaa-0000-4000-8000-000000000001',
  'aaaaaaaa-0000-4000-8000-000000000002',
  'aaaaaaaa-0000-4000-8000-000000000003',
];

const snapshot: TemplateSnapshot = {
  name: 'Client intake',
  description: 'Everything we need to start working together',
  vertical: 'accounting',
  settings: { brand_color: '#0055aa', show_progress: true },
  translations: {},
  steps: [
    {
      id: STEP_ID,
      title: 'About you',
      sort_order: 0,
      is_optional: false,
      conditional_rules: null,
      translations: {},
      fields: FIELD_IDS.map((id, index) => ({
        id,
        type: 'short_text',
        label: ['Legal name', 'Tax number', 'Preferred contact time'][index]!,
        sort_order: index,
        is_required: index < 2,
        config: { placeholder: 'Type here', max_length: 200 },
        conditional_rules: null,
        translations: {},
      })),
    },
  ],
};

const at = (second: number) => new Date(Date.UTC(2025, 10, 21, 9, 0, second)).toISOString();

function metadata(teamId: string) {
  return {
    command_id: randomUUID(),
    idempotency_key: null,
    request_id: randomUUID(),
    api_key_id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
    causation_id: randomUUID(),
    correlation_id: randomUUID(),
    team_id: teamId,
  };
}

/** Sealed personal fields of one data subject. */
export interface Persona {
  name: Sealed;
  email: Sealed;
  company: Sealed | null;
  custom_fields: Sealed;
}

/** `count` personas sealed with their own keys (one personal_data_keys row each). */
export async function sealedPersonas(pool: Pool, teamId: string, count: number): Promise<Persona[]> {
  const vault = new PersonalDataVault(pool);
  const personas: Persona[] = [];
  for (let index = 0; index < count; index++) {
    const subject = randomUUID();
    const seal = async (value: string) => (await vault.seal(teamId, subject, value))!;
    personas.push({
      name: await seal(`Client ${index}`),
      email: await seal(`client-${index}@example.com`),
      company: await seal('Example Ltd'),
      custom_fields: await seal('{"crm_id":"A-1234"}'),
    });
  }
  return personas;
}

/** The two streams of one onboarding (client first), events in append order. */
export function onboardingStreams(
  teamId: string,
  index: number,
  personas: Persona[] = [],
): [GeneratedStream, GeneratedStream] {
  const persona = personas.length > 0 ? personas[index % personas.length] : undefined;
  const clientId = randomUUID();
  const onboardingId = randomUUID();
  const base = { onboarding_id: onboardingId, team_id: teamId };
  const client: ClientCreated = {
    type: 'client.created',
    data: {
      client_id: clientId,
      team_id: teamId,
      name: persona?.name ?? `Client ${index}`,
      email: persona?.email ?? `client-${index}@example.com`,
      company: persona?.company ?? 'Example Ltd',
      phone: null,
      notes: null,
      custom_fields: persona?.custom_fields ?? '{}',
      email_hash: clientId.replace(/-/g, '').repeat(2),
      locale: 'en-US',
      date_format: 'MM/DD/YYYY',
      timezone: 'UTC',
      created_at: at(0),
    },
  };
  const tokenHash = onboardingId.replace(/-/g, '').repeat(2);
  const answers: OnboardingEvent[] = FIELD_IDS.map((fieldId, field) => ({
    type: 'answer_saved',
    data: {
      ...base,
      step_id: STEP_ID,
      field_id: fieldId,
      response_id: randomUUID(),
      value: `Answer ${field} of client ${index}`,
      saved_at: at(10 + field),
    },
  }));
  const onboarding: OnboardingEvent[] = [
    {
      type: 'onboarding_created',
      data: {
        ...base,
        client_id: clientId,
        template_id: 'bbbbbbbb-0000-4000-8000-000000000001',
        template_source: 'team',
        template_snapshot: snapshot,
        token_hash: tokenHash,
        due_date: null,
        due_on: null,
        due_timezone: null,
        expires_at: null,
        created_at: at(1),
      },
    },
    {
      type: 'onboarding.sent',
      data: {
        ...base,
        client_id: clientId,
        send_number: 1,
        resend: false,
        from: 'draft',
        status: 'sent',
        counted: true,
        usage_month: '2025-11',
        new_recipient: true,
        token_hash: tokenHash,
        pin: null,
        pin_changed: false,
        forced: false,
        reminders_at: [at(3), at(4)],
        sent_at: at(2),
      },
    },
    {
      type: 'onboarding.started',
      data: { ...base, send_number: 1, from: 'sent', status: 'in_progress', started_at: at(5) },
    },
    ...answers,
    {
      type: 'response.submitted',
      data: {
        ...base,
        step_id: STEP_ID,
        responses: answers.map((answer) => {
          const data = answer.data as { response_id: string; field_id: string };
          return { response_id: data.response_id, field_id: data.field_id };
        }),
        progress_pct: 100,
        submitted_at: at(20),
      },
    },
    { type: 'onboarding.completed', data: { ...base, progress_pct: 100, completed_at: at(21) } },
  ];
  const withMetadata = (event: { type: string; data: unknown }): NewEvent => ({
    id: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: metadata(teamId),
  });
  return [
    { streamId: `client-${clientId}`, events: [withMetadata(client)] },
    { streamId: `onboarding-${onboardingId}`, events: onboarding.map(withMetadata) },
  ];
}
