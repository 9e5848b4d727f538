import { describe, expect, it } from 'vitest';
import { fold } from '../../shared/commands/decider.ts';
import { clientDecider, type CreateClient, type UpdateClient } from './client-decider.ts';
import type { ClientEvent } from './client-events.ts';
import { DeciderSpecification } from '../../test/helpers/decider-spec.ts';

const now = new Date('2025-03-01T10:00:00.000Z');
const clientId = '11111111-1111-4111-8111-111111111111';
const teamId = '22222222-2222-4222-8222-222222222222';

function createCommand(overrides: Partial<CreateClient['data']> = {}): CreateClient {
  const data = {
    client_id: clientId,
    team_id: teamId,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    company: 'Analytical Engines',
    phone: null,
    notes: 'Prefers mornings',
    custom_fields: { tier: 'gold' },
    locale: 'en-GB',
    date_format: 'DD/MM/YYYY',
    timezone: 'Europe/London',
    ...overrides,
  };
  return {
    type: 'CreateClient',
    data,
    sealed: {
      name: data.name,
      email: data.email,
      company: data.company,
      phone: data.phone,
      notes: data.notes,
      custom_fields: JSON.stringify(data.custom_fields),
    },
    metadata: { now },
  };
}

/** Given events, when a command: the events it decides. */
const given = DeciderSpecification.for(clientDecider);

const created: ClientEvent = {
  type: 'client.created',
  data: {
    client_id: clientId,
    team_id: teamId,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    company: 'Analytical Engines',
    phone: null,
    notes: 'Prefers mornings',
    custom_fields: '{"tier":"gold"}',
    locale: 'en-GB',
    date_format: 'DD/MM/YYYY',
    timezone: 'Europe/London',
    created_at: now.toISOString(),
  },
};

describe('client decider', () => {
  it('given no client, when created, then client.created with the sealed values and the clock time', () => {
    given([]).when(createCommand()).then([created]);
  });

  it('given the client exists, when created again, then nothing (the caller answers with it)', () => {
    given([created])
      .when(createCommand({ name: 'Someone else' }))
      .then([]);
  });

  it.each([
    ['name', { name: 'Ada https://bit.ly/abc' }],
    ['company', { company: 'see tinyurl.com/x' }],
    ['notes', { notes: 'WWW.T.CO/xyz' }],
    ['custom_fields', { custom_fields: { deep: { list: ['ok', 'go to rb.gy/1'] } } }],
  ])('given no client, when %s holds a short link, then 422 link_blocked and nothing', (field, overrides) => {
    const error = given([])
      .when(createCommand(overrides as Partial<CreateClient['data']>))
      .thenThrows('link_blocked');
    expect(error.details).toMatchObject({ field });
  });

  it('phone and email are not client-facing text', () => {
    given([])
      .when(createCommand({ phone: 'bit.ly', email: 'x@bit.ly' }))
      .thenTypes(['client.created']);
  });

  it('evolves to an active client', () => {
    expect(fold(clientDecider, [created])).toEqual({
      status: 'active',
      clientId,
      teamId,
      createdAt: now.toISOString(),
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      company: 'Analytical Engines',
    });
  });
});

function updateCommand(
  changes: UpdateClient['data']['changes'],
  extra: Partial<UpdateClient['data']> = {},
): UpdateClient {
  return {
    type: 'UpdateClient',
    data: {
      client_id: clientId,
      team_id: teamId,
      changes,
      expected_email: 'ada@example.com',
      ...extra,
    },
    sealed: Object.fromEntries(
      Object.entries(changes).map(([field, value]) => [
        field,
        typeof value === 'object' && value !== null ? JSON.stringify(value) : value,
      ]),
    ) as UpdateClient['sealed'],
    metadata: { now },
  };
}

describe('client decider: update', () => {
  it('given a client, when its name and email change, then client.updated with no digest of the email', () => {
    const events = given([created])
      .when(updateCommand({ name: 'Ada King', email: 'ada.king@example.com' }))
      .events();
    expect(events).toEqual([
      {
        type: 'client.updated',
        data: {
          client_id: clientId,
          team_id: teamId,
          changes: { name: 'Ada King', email: 'ada.king@example.com' },
          updated_at: now.toISOString(),
        },
      },
    ]);
    const state = fold(clientDecider, [created, ...events]);
    expect(state).toMatchObject({
      email: 'ada.king@example.com',
      name: 'Ada King',
      company: 'Analytical Engines',
    });
  });

  it('given a client, when only the phone changes, then only the phone, and no email hash field', () => {
    const [event] = given([created])
      .when(updateCommand({ phone: '+44 20' }))
      .events();
    expect(event?.data).toMatchObject({ changes: { phone: '+44 20' } });
    expect(event?.data).not.toHaveProperty('email_hash');
  });

  it('given old events that carry an email hash, the state never holds it', () => {
    const legacy = { ...created, data: { ...created.data, email_hash: 'a'.repeat(64) } } as ClientEvent;
    expect(JSON.stringify(fold(clientDecider, [legacy]))).not.toContain('a'.repeat(64));
  });

  it('given a client, when nothing changes, then nothing is decided', () => {
    given([created]).when(updateCommand({})).then([]);
  });

  it('given an erased client, another team or no client, when updated, then client_not_found', () => {
    const erased: ClientEvent = {
      type: 'client.erased',
      data: { client_id: clientId, team_id: teamId, erased_at: now.toISOString() },
    };
    for (const [events, command] of [
      [[created, erased], updateCommand({ name: 'X' })],
      [[created], updateCommand({ name: 'X' }, { team_id: '33333333-3333-4333-8333-333333333333' })],
      [[], updateCommand({ name: 'X' })],
    ] as const) {
      given([...events])
        .when(command)
        .thenThrows('client_not_found');
    }
  });

  it('given an email changed meanwhile, when updated to another email, then client_changed', () => {
    const command = updateCommand({ email: 'z@example.com' }, { expected_email: 'old@example.com' });
    given([created]).when(command).thenThrows('client_changed');
  });

  it('given a client, when a short link goes into the notes, then link_blocked', () => {
    given([created])
      .when(updateCommand({ notes: 'see bit.ly/abc' }))
      .thenThrows('link_blocked');
  });
});
