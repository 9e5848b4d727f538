import { describe, expect, it } from 'vitest';
import { DomainError, fold } from '../../shared/commands/decider.ts';
import { clientDecider, type CreateClient } from './client-decider.ts';
import { emailHash } from './client-email-index.ts';
import type { ClientEvent } from './client-events.ts';

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
const given = (events: ClientEvent[]) => ({
  when: (command: CreateClient) => () => clientDecider.decide(command, fold(clientDecider, events)),
});

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
    email_hash: emailHash('ada@example.com'),
    locale: 'en-GB',
    date_format: 'DD/MM/YYYY',
    timezone: 'Europe/London',
    created_at: now.toISOString(),
  },
};

describe('client decider', () => {
  it('given no client, when created, then client.created with the sealed values and the clock time', () => {
    expect(given([]).when(createCommand())()).toEqual([created]);
  });

  it('given the client exists, when created again, then nothing (the caller answers with it)', () => {
    expect(given([created]).when(createCommand({ name: 'Someone else' }))()).toEqual([]);
  });

  it.each([
    ['name', { name: 'Ada https://bit.ly/abc' }],
    ['company', { company: 'see tinyurl.com/x' }],
    ['notes', { notes: 'WWW.T.CO/xyz' }],
    ['custom_fields', { custom_fields: { deep: { list: ['ok', 'go to rb.gy/1'] } } }],
  ])('given no client, when %s holds a short link, then 422 link_blocked and nothing', (field, overrides) => {
    const decide = given([]).when(createCommand(overrides as Partial<CreateClient['data']>));
    expect(decide).toThrow(DomainError);
    try {
      decide();
    } catch (error) {
      expect((error as DomainError).code).toBe('link_blocked');
      expect((error as DomainError).details).toMatchObject({ field });
    }
  });

  it('phone and email are not client-facing text', () => {
    expect(given([]).when(createCommand({ phone: 'bit.ly', email: 'x@bit.ly' }))()).toHaveLength(1);
  });

  it('evolves to an active client', () => {
    expect(fold(clientDecider, [created])).toEqual({
      status: 'active',
      clientId,
      teamId,
      createdAt: now.toISOString(),
    });
  });
});
