import { clientDecider, type ClientState } from './client-decider.ts';
import { releaseEmails } from './client-email-index.ts';
import { deleteSearchTokens } from './client-search-index.ts';
import { clientStream, type ClientEvent } from './client-events.ts';
import { fold } from '../../shared/commands/decider.ts';
import {
  handleCommand,
  inCommandTransaction,
  toDomainEvent,
  type CommandMetadata,
} from '../../shared/commands/handle-command.ts';
import { runOnboardingCommand } from '../onboardings/index.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import { deleteClientFiles } from '../onboardings/index.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { eraseClientFromRuns } from '../automation/index.ts';
import type { Platform } from '../../shared/app-deps.ts';

/** What erasing a client's data uses. */
export type ClientErasureDeps = Pick<Platform, 'pool' | 'eventStore' | 'vault' | 'clock'>;

/**
 * Erasure of a client's personal data (POST /admin/v1/teams/:team_id/clients/:client_id/erase),
 * by crypto-shredding: every personal value of the client in the event log (its name,
 * email, company, phone, notes, custom fields; the answers, signer names and emails and
 * file names it entered in the portal) is sealed with the client's own key, so deleting
 * that key makes them unreadable wherever the log is kept (PostgreSQL or EventStoreDB,
 * Kafka, exports, backups) without rewriting history. In order, each step safe to repeat
 * (a failed erasure is finished by calling it again):
 *
 * 1. note the client's email address while it can still be read (for step 7);
 * 2. delete the key (vault.erase): from now on nothing can seal new values for the client
 *    nor open old ones, so no projection can write its data again;
 * 3. (in the last transaction, below) delete its rows of the email index and of the search
 *    index: a new client may use the address, and no keyed digest of its email or words
 *    is kept (docs/decisions/0016, 0017). After step 4, so a change that commits before it
 *    loses its rows too and one after it is refused;
 * 4. append client.erased to the client's stream: the clients and responses read models
 *    drop what they had opened, the client leaves every list, and creating an onboarding
 *    for it answers 410 client_erasure_pending;
 * 5. EraseClient on each of its onboardings (onboarding_client_erased): they leave every
 *    list and get, their links stop working, their timers are cancelled;
 * 6. run CLIENT_ERASURE_STEPS (other features' own tables: the automation runs). They run
 *    before the outbox scrub, so an email that a feature's work in flight queued is
 *    scrubbed with the others. (Hook deliveries hold ids and facts only: nothing to scrub.)
 * 7. scrub the outbox: emails of those onboardings or to that address keep their ids and
 *    kinds, lose recipient, subject and text; queued ones are marked failed (never sent);
 * 8. delete the files it uploaded.
 */

export interface ErasedClient {
  teamId: string;
  clientId: string;
  /** The address before erasure; null when it could no longer be read (a repeated erasure). */
  email: string | null;
  onboardingIds: string[];
}

/** Further scrubbing of other features' tables, inside the erasure's last transaction. */
export type ClientErasureStep = (tx: PoolClient, client: ErasedClient) => Promise<void>;
export const CLIENT_ERASURE_STEPS: ClientErasureStep[] = [eraseClientFromRuns];

export const ERASED_TEXT = '(erased with the client’s personal data)';

export interface ErasureOutcome {
  clientId: string;
  erasedAt: string;
  onboardings: number;
  position: bigint | undefined;
}

const maxPosition = (a: bigint | undefined, b: bigint | undefined) =>
  a === undefined ? b : b === undefined ? a : a > b ? a : b;

export async function eraseClientData(
  context: ClientErasureDeps,
  teamId: string,
  clientId: string,
  metadata: CommandMetadata,
): Promise<ErasureOutcome> {
  const recorded = await context.eventStore.readStream(clientStream(clientId));
  const events = recorded.map(toDomainEvent<ClientEvent>);
  const state: ClientState = fold(clientDecider, events);
  if (state.status === 'absent' || state.teamId !== teamId) {
    throw codedError(404, 'client_not_found', 'Client not found');
  }
  // The current email (an update may have changed it).
  const { email: sealedEmail } = state;

  // 1-2
  const email = await context.vault.open(sealedEmail);
  await context.vault.erase(clientId);
  const now = context.clock.now();

  // 4
  const erased = await handleCommand(context, {
    streamId: clientStream(clientId),
    decider: clientDecider,
    command: { type: 'EraseClient', data: { client_id: clientId, team_id: teamId }, metadata: { now } },
    metadata,
  });
  let position = erased.position;
  const erasedAt = erased.state.status === 'erased' ? erased.state.erasedAt : now.toISOString();

  // 5
  const { rows } = await context.pool.query<{ id: string }>(
    `select onboarding_id as id from response_onboardings where client_id = $1 and team_id = $2
     union select id from onboardings where client_id = $1 and team_id = $2`,
    [clientId, teamId],
  );
  const onboardingIds = rows.map((row) => row.id);
  for (const onboardingId of onboardingIds) {
    const outcome = await inCommandTransaction(context, (tx) =>
      runOnboardingCommand(
        { pool: context.pool, eventStore: context.eventStore },
        tx,
        onboardingId,
        () => ({ type: 'EraseClient', data: {}, metadata: { now } }),
        metadata,
      ),
    );
    position = maxPosition(position, outcome.position);
  }

  // 3, 6-8
  await inCommandTransaction(context, async (tx) => {
    await releaseEmails(tx, teamId, clientId);
    await deleteSearchTokens(tx, teamId, clientId);
    for (const step of CLIENT_ERASURE_STEPS) await step(tx, { teamId, clientId, email, onboardingIds });
    await tx.query(
      `update mail_outbox
       set "to" = '', subject = $4, text = $4, html = null,
           -- A held invite (EventStoreDB, before its append) is never released to an erased client.
           status = case when status in ('queued', 'held') then 'failed' else status end
       where team_id = $1 and (onboarding_id = any($2::uuid[]) or client_id = $5
         or ($3::text is not null and lower("to") = $3))`,
      [teamId, onboardingIds, email?.toLowerCase() ?? null, ERASED_TEXT, clientId],
    );
    await deleteClientFiles(tx, teamId, clientId);
  });

  return { clientId, erasedAt, onboardings: onboardingIds.length, position };
}
