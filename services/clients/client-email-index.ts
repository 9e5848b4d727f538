import type { Pool } from '../../shared/db/pool.ts';
import type { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import { emailBlindIndex } from '../../shared/privacy/sealed-columns.ts';
import { fold, type DomainEvent } from '../../shared/commands/decider.ts';
import {
  handleCommand,
  toDomainEvent,
  type PipelineDeps,
  type StreamCommand,
} from '../../shared/commands/handle-command.ts';
import type { EventStore } from '../../shared/event-store/event-store.ts';
import { clientDecider } from './client-decider.ts';
import { clientStream, type ClientEvent } from './client-events.ts';

/**
 * Email uniqueness per team (docs/decisions/0016-nothing-linkable-after-erasure.md): one
 * row of client_email_index per email a client holds, keyed by the email's blind index
 * (HMAC-SHA256 under the team's index key), never by the address or an unkeyed hash of
 * it. The primary key (team_id, email_index) decides which of two racing creates holds an
 * address, whichever event store runs; the log holds no identifier derived from the email
 * (no stream per email, no email hash in events). Erasing a client deletes its rows.
 *
 * Before this table, reservations were streams `client_email-<team>-<sha256(email)>`: the
 * events of those streams stay in the log, are never read again, and leave the service
 * (export, Kafka) without the digest (services/events/outward-event.ts).
 */

/**
 * Events of the reservation streams of before (`client_email-<team>-<sha256(email)>`): in
 * old logs only, never written now. Their stream id and email_hash never leave the service
 * (services/events/outward-event.ts).
 */
export type ClientEmailEvent =
  | DomainEvent<'client_email.reserved', { team_id: string; client_id: string; email_hash?: string }>
  | DomainEvent<'client_email.released', { team_id: string; client_id: string; email_hash?: string }>;

type Deps = { pool: Pick<Pool, 'query'>; vault: Pick<PersonalDataVault, 'teamIndexKey'> };

export const normalizedEmail = (email: string) => email.trim().toLowerCase();

/** The email's blind index within the team: the key of its row. */
export async function emailIndexOf(deps: Deps, teamId: string, email: string): Promise<string> {
  return emailBlindIndex(await deps.vault.teamIndexKey(teamId), normalizedEmail(email));
}

/**
 * The client that holds `email` in the team: `clientId` when the address was free (it is
 * reserved for it now), else the holder. A client of an install from before the table that
 * the clients read model knows (same blind index, key not erased) is its holder: its row
 * is written then.
 */
export async function reserveEmail(
  deps: Deps,
  teamId: string,
  email: string,
  clientId: string,
): Promise<string> {
  const index = await emailIndexOf(deps, teamId, email);
  for (let attempt = 0; attempt < 5; attempt++) {
    const inserted = await deps.pool.query<{ client_id: string }>(
      `insert into client_email_index (team_id, email_index, client_id)
       select $1, $2, coalesce((
         select c.id from clients c
         where c.team_id = $1 and c.email_hash = $2 and c.id <> $3
           and not client_is_erased(c.erased_at, c.email)
           and not exists (select 1 from personal_data_keys k where k.subject_id = c.id and k.key is null)
         order by c.created_at, c.position limit 1), $3::uuid)
       on conflict do nothing
       returning client_id::text`,
      [teamId, index, clientId],
    );
    if (inserted.rows[0]) return inserted.rows[0].client_id;
    const held = await deps.pool.query<{ client_id: string }>(
      'select client_id::text from client_email_index where team_id = $1 and email_index = $2',
      [teamId, index],
    );
    // Released between the two statements: try again.
    if (held.rows[0]) return held.rows[0].client_id;
  }
  throw new Error('The email index changed under every attempt to reserve an address');
}

/**
 * Gives back every address the client holds except `keep` (its current email's index;
 * undefined: all of them, as an erasure does).
 */
export async function releaseEmails(
  db: Pick<Pool, 'query'>,
  teamId: string,
  clientId: string,
  keep?: string,
): Promise<void> {
  await db.query(
    `delete from client_email_index
     where team_id = $1 and client_id = $2 and ($3::text is null or email_index <> $3)`,
    [teamId, clientId, keep ?? null],
  );
}

/**
 * After a change of email (applied or refused): the client keeps the row of the email it
 * has now and gives back the others, so a refused change frees the address it reserved
 * and an applied one frees the old address.
 */
export async function settleEmails(
  deps: Deps & { eventStore: EventStore; vault: Pick<PersonalDataVault, 'teamIndexKey' | 'open'> },
  teamId: string,
  clientId: string,
): Promise<void> {
  const recorded = await deps.eventStore.readStream(clientStream(clientId));
  const state = fold(clientDecider, recorded.map(toDomainEvent<ClientEvent>));
  if (state.status !== 'active') return releaseEmails(deps.pool, teamId, clientId);
  const email = await deps.vault.open(state.email);
  if (email === null) return releaseEmails(deps.pool, teamId, clientId);
  await releaseEmails(deps.pool, teamId, clientId, await emailIndexOf(deps, teamId, email));
}

/**
 * A client command run while an email is reserved for it (a create, a change of email):
 * when the command fails, `giveBack` settles the reservation, then the error goes on.
 */
export async function commandHoldingEmail<State, Command, Event extends DomainEvent>(
  deps: PipelineDeps,
  spec: StreamCommand<State, Command, Event>,
  giveBack: (error: unknown) => Promise<unknown>,
) {
  try {
    return await handleCommand(deps, spec);
  } catch (error) {
    await giveBack(error);
    throw error;
  }
}
