import { describe, expect, it } from 'vitest';
import { clientDecider, type ClientCommand } from './client-decider.ts';
import type { ClientEvent } from './client-events.ts';
import { DeciderSpecification } from '../../test/helpers/decider-spec.ts';

/** The client aggregate's erasure, given events, when EraseClient, then events (no I/O). */

const TEAM = '11111111-1111-4111-8111-111111111111';
const CLIENT = '22222222-2222-4222-8222-222222222222';
const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute));

const created: ClientEvent = {
  type: 'client.created',
  data: {
    client_id: CLIENT,
    team_id: TEAM,
    name: 'sealed',
    email: 'sealed',
    company: null,
    phone: null,
    notes: null,
    custom_fields: '{}',
    email_hash: 'a'.repeat(64),
    locale: 'en-US',
    date_format: 'MM/DD/YYYY',
    timezone: 'UTC',
    created_at: at(0).toISOString(),
  },
};

const erase = (teamId = TEAM): ClientCommand => ({
  type: 'EraseClient',
  data: { client_id: CLIENT, team_id: teamId },
  metadata: { now: at(5) },
});

const given = DeciderSpecification.for(clientDecider);

describe('EraseClient', () => {
  it('records client.erased once, without personal data', () => {
    const events = given(created).when(erase()).events();
    expect(events).toEqual([
      { type: 'client.erased', data: { client_id: CLIENT, team_id: TEAM, erased_at: at(5).toISOString() } },
    ]);
    given(created, events).when(erase()).thenNothingHappened();
    expect(given(created).when(erase()).thenState()).toMatchObject({
      status: 'erased',
      erasedAt: at(5).toISOString(),
    });
  });

  it("refuses an unknown client or another team's: client_not_found", () => {
    given().when(erase()).thenThrows('client_not_found');
    given(created).when(erase('33333333-3333-4333-8333-333333333333')).thenThrows('client_not_found');
  });

  it('an erased client is not created again', () => {
    const erased = given(created).when(erase()).events();
    const recreate: ClientCommand = {
      type: 'CreateClient',
      data: {
        client_id: CLIENT,
        team_id: TEAM,
        name: 'N',
        email: 'n@example.com',
        company: null,
        phone: null,
        notes: null,
        custom_fields: {},
        locale: 'en-US',
        date_format: 'MM/DD/YYYY',
        timezone: 'UTC',
      },
      sealed: { name: 'x', email: 'x', company: null, phone: null, notes: null, custom_fields: '{}' },
      metadata: { now: at(9) },
    };
    given(created, erased).when(recreate).thenNothingHappened();
  });
});
