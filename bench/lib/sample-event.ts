import { randomUUID } from 'node:crypto';

/**
 * A representative event: the size and shape of an onboarding event of this service
 * (about 300 bytes of data, about 250 bytes of metadata with the ids every event carries).
 * Every contender stores exactly this payload, so rows have the same width.
 */
export interface SampleEvent {
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export const SAMPLE_TYPES = [
  'bench.onboarding_created',
  'bench.onboarding_sent',
  'bench.onboarding_started',
  'bench.response_saved',
  'bench.response_submitted',
  'bench.onboarding_completed',
] as const;

export function sampleEvent(onboardingId: string, index: number, teamId = TEAM_ID): SampleEvent {
  return {
    type: SAMPLE_TYPES[index % SAMPLE_TYPES.length]!,
    data: {
      onboarding_id: onboardingId,
      team_id: teamId,
      client_id: randomUUID(),
      template_id: TEMPLATE_ID,
      status: 'draft',
      due_date: '2025-12-31T23:59:59.000+01:00',
      client_name: 'Ada Lovelace',
      client_email: 'ada@example.com',
      field_id: randomUUID(),
      value: 'A short answer of a client to one field of the form',
      at: '2025-11-21T10:00:00.000Z',
    },
    metadata: {
      command_id: randomUUID(),
      idempotency_key: null,
      request_id: randomUUID(),
      api_key_id: API_KEY_ID,
      causation_id: randomUUID(),
      correlation_id: randomUUID(),
    },
  };
}

export const TEAM_ID = '6a0f4c8e-2b5d-4f3a-9c1e-7d8b9a0c1e2f';
const TEMPLATE_ID = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const API_KEY_ID = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
