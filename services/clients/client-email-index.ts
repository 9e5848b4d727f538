import { createHash } from 'node:crypto';
import {
  type Decider,
  type DomainEvent,
  unhandledEvent,
  unknownCommand,
} from '../../shared/commands/decider.ts';

/**
 * Email uniqueness per team, held on the write side so it works with either event store:
 * one small stream per (team, email), `client_email-<team_id>-<sha256(email)>`. The first
 * create appends `client_email.reserved` naming its client id; appends use the expected
 * revision, so of two racing creates exactly one reserves and the other, retrying,
 * finds the reservation and answers with that client. Erasing a client
 * releases the email with `client_email.released`, after which it can be reserved again.
 *
 * The stream name holds a hash, not the email, so the log's stream ids carry no address.
 */
export const emailHash = (email: string) => createHash('sha256').update(email).digest('hex');

export const clientEmailStream = (teamId: string, email: string) =>
  clientEmailStreamOfHash(teamId, emailHash(email));

/** The same stream from the `email_hash` of client.created (after erasure the email is unreadable). */
export const clientEmailStreamOfHash = (teamId: string, hash: string) => `client_email-${teamId}-${hash}`;

export type EmailReserved = DomainEvent<
  'client_email.reserved',
  { team_id: string; email_hash: string; client_id: string }
>;
export type EmailReleased = DomainEvent<
  'client_email.released',
  { team_id: string; email_hash: string; client_id: string }
>;
export type ClientEmailEvent = EmailReserved | EmailReleased;

export interface ClientEmailState {
  /** The client that holds the email, or null when free. */
  clientId: string | null;
}

export type ReserveEmail = {
  type: 'ReserveEmail';
  data: { team_id: string; email: string; client_id: string };
};
/** By hash: an erasure releases the email after the address itself is unreadable. */
export type ReleaseEmail = {
  type: 'ReleaseEmail';
  data: { team_id: string; email_hash: string; client_id: string };
};
export type ClientEmailCommand = ReserveEmail | ReleaseEmail;

export const clientEmailDecider: Decider<ClientEmailState, ClientEmailCommand, ClientEmailEvent> = {
  initialState: () => ({ clientId: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'client_email.reserved':
        return { clientId: event.data.client_id };
      case 'client_email.released':
        return { clientId: null };
      default:
        return unhandledEvent(event, state);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ReserveEmail': {
        // Already held: nothing to do, the state names the holder.
        if (state.clientId !== null) return [];
        const { team_id, client_id, email } = command.data;
        return [
          { type: 'client_email.reserved', data: { team_id, email_hash: emailHash(email), client_id } },
        ];
      }
      case 'ReleaseEmail':
        if (state.clientId !== command.data.client_id) return [];
        return [{ type: 'client_email.released', data: command.data }];
      default:
        throw unknownCommand(command);
    }
  },
};
