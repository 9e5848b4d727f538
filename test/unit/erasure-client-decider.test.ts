import { describe, expect, it } from 'vitest';
import { clientDecider, type ClientCommand } from '../../services/clients/client-decider.ts';
import type { ClientEvent } from '../../services/clients/client-events.ts';
import { fold } from '../../shared/commands/decider.ts';

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

const decide = (given: ClientEvent[], command: ClientCommand) =>
  clientDecider.decide(command, fold(clientDecider, given));

describe('EraseClient', () => {
  it('records client.erased once, without personal data', () => {
    const events = decide([created], erase());
    expect(events).toEqual([
      { type: 'client.erased', data: { client_id: CLIENT, team_id: TEAM, erased_at: at(5).toISOString() } },
    ]);
    expect(decide([created, ...events], erase())).toEqual([]);
    expect(fold(clientDecider, [created, ...events])).toMatchObject({
      status: 'erased',
      erasedAt: at(5).toISOString(),
    });
  });

  it("refuses an unknown client or another team's: client_not_found", () => {
    expect(() => decide([], erase())).toThrow(expect.objectContaining({ code: 'client_not_found' }));
    expect(() => decide([created], erase('33333333-3333-4333-8333-333333333333'))).toThrow(
      expect.objectContaining({ code: 'client_not_found' }),
    );
  });

  it('an erased client is not created again', () => {
    const erased = decide([created], erase());
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
    expect(decide([created, ...erased], recreate)).toEqual([]);
  });
});
