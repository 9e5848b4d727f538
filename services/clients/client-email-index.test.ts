import { describe, expect, it } from 'vitest';
import { fold } from '../../shared/commands/decider.ts';
import {
  clientEmailDecider,
  clientEmailStream,
  clientEmailStreamOfHash,
  emailHash,
  type ClientEmailCommand,
  type ClientEmailEvent,
} from './client-email-index.ts';

const teamId = '22222222-2222-4222-8222-222222222222';
const first = '11111111-1111-4111-8111-111111111111';
const second = '33333333-3333-4333-8333-333333333333';
const email = 'ada@example.com';
const hash = emailHash(email);

const given = (events: ClientEmailEvent[]) => ({
  when: (command: ClientEmailCommand) => clientEmailDecider.decide(command, fold(clientEmailDecider, events)),
});
const reserve = (clientId: string): ClientEmailCommand => ({
  type: 'ReserveEmail',
  data: { team_id: teamId, email, client_id: clientId },
});
const release = (clientId: string): ClientEmailCommand => ({
  type: 'ReleaseEmail',
  data: { team_id: teamId, email_hash: hash, client_id: clientId },
});
const reserved = (clientId: string): ClientEmailEvent => ({
  type: 'client_email.reserved',
  data: { team_id: teamId, email_hash: hash, client_id: clientId },
});
const released = (clientId: string): ClientEmailEvent => ({
  type: 'client_email.released',
  data: { team_id: teamId, email_hash: hash, client_id: clientId },
});

describe('client email index', () => {
  it('names the stream by team and email hash, never the address', () => {
    expect(clientEmailStream(teamId, email)).toBe(`client_email-${teamId}-${hash}`);
    expect(clientEmailStream(teamId, email)).not.toContain('ada');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(clientEmailStreamOfHash(teamId, hash)).toBe(clientEmailStream(teamId, email));
  });

  it('given a free email, when reserved, then reserved for that client', () => {
    expect(given([]).when(reserve(first))).toEqual([reserved(first)]);
  });

  it('given a reserved email, when reserved by another client, then nothing and the holder stays', () => {
    expect(given([reserved(first)]).when(reserve(second))).toEqual([]);
    expect(fold(clientEmailDecider, [reserved(first)]).clientId).toBe(first);
  });

  it('given a reserved email, when released by its holder, then released and free again', () => {
    expect(given([reserved(first)]).when(release(first))).toEqual([released(first)]);
    expect(given([reserved(first), released(first)]).when(reserve(second))).toEqual([reserved(second)]);
  });

  it('given a reserved email, when released by another client, then nothing', () => {
    expect(given([reserved(first)]).when(release(second))).toEqual([]);
    expect(given([]).when(release(first))).toEqual([]);
  });
});
