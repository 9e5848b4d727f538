import type { CommandMetadata } from '../../../shared/commands/handle-command.ts';
import type { Platform } from '../../../shared/app-deps.ts';
import { emailIndexOf } from '../client-email-index.ts';
import { eraseClientData } from '../client-erasure.ts';
import { clientInput, createClient } from '../create-client.ts';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import type { ImportPlan, ImportRow } from './import-plan.ts';

/*
 * The import's writes (docs/decisions/0087-client-import.md). Each client is created through
 * createClient, as one added by hand: its personal data sealed with its own key, its email
 * reserved in the team's email index. Those are several transactions per client (the key,
 * the index row, the stream), and with EventStoreDB the append is outside PostgreSQL, so one
 * transaction cannot hold the whole file. Instead the run is all-or-nothing by compensation:
 * every row was checked before the first write (import-plan.ts), and when a create fails
 * part-way, each client this run created is erased (crypto-shredded: it leaves every list and
 * its email is free again) before the failure is answered. Clients that existed before are
 * never touched. A run stopped by a crash between two creates leaves the clients created so
 * far; the same file imported again finds them by email and keeps them (nothing twice).
 */

export type ImportDeps = Pick<
  Platform,
  'pool' | 'readPool' | 'eventStore' | 'vault' | 'clock' | 'projections' | 'logger'
>;

export interface ImportedClient {
  client_id: string;
  row: number;
  name: string;
  email: string;
  /** 'created': new; 'kept': the team already had a client with this email (not changed). */
  outcome: 'created' | 'kept';
}

export type CreateOne = typeof createClient;

/** The team's clients that already hold these emails, by email as the plan spells it. */
export async function existingClients(
  deps: Pick<ImportDeps, 'pool' | 'vault'>,
  teamId: string,
  emails: string[],
): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const indexes = await Promise.all(emails.map((email) => emailIndexOf(deps, teamId, email)));
  const held = await deps.pool.query<{ email_index: string; client_id: string }>(
    `select email_index, client_id::text from client_email_index
     where team_id = $1 and email_index = any($2::text[])`,
    [teamId, indexes],
  );
  const holder = new Map(held.rows.map((row) => [row.email_index, row.client_id]));
  const found = new Map<string, string>();
  emails.forEach((email, at) => {
    const clientId = holder.get(indexes[at]!);
    if (clientId) found.set(email, clientId);
  });
  return found;
}

/**
 * Creates every client of the plan, in file order; on a failure erases those it created and
 * throws the failure once the read models have applied the erasures, so the lists the member
 * opens next no longer show them. `create` is createClient (a test passes one that fails
 * part-way).
 */
export async function importClients(
  deps: ImportDeps,
  teamId: string,
  plan: Pick<ImportPlan, 'clients'>,
  metadata: () => CommandMetadata,
  create: CreateOne = createClient,
): Promise<{ clients: ImportedClient[]; position: bigint | undefined }> {
  const clients: ImportedClient[] = [];
  let position: bigint | undefined;
  try {
    for (const row of plan.clients) {
      const outcome = await create(deps, await inputOf(deps, teamId, row), deps.clock.now(), metadata());
      if (outcome.position !== undefined && (position === undefined || outcome.position > position)) {
        position = outcome.position;
      }
      clients.push({
        client_id: outcome.clientId,
        row: row.row,
        name: row.name,
        email: row.email,
        outcome: outcome.created ? 'created' : 'kept',
      });
    }
  } catch (error) {
    await awaitReadModels(deps, await undo(deps, teamId, clients, metadata));
    throw error;
  }
  return { clients, position };
}

const inputOf = (deps: ImportDeps, teamId: string, row: ImportRow) =>
  clientInput(deps.readPool, teamId, {
    name: row.name,
    email: row.email,
    company: row.company,
    phone: row.phone,
    ...(row.locale ? { locale: row.locale } : {}),
  });

/** Erases the clients this run created (not those it kept), newest first; the last erasure's position. */
async function undo(
  deps: ImportDeps,
  teamId: string,
  clients: ImportedClient[],
  metadata: () => CommandMetadata,
): Promise<bigint | undefined> {
  let position: bigint | undefined;
  for (const client of clients.filter((one) => one.outcome === 'created').reverse()) {
    const erased = await eraseClientData(deps, teamId, client.client_id, metadata());
    if (erased.position !== undefined && (position === undefined || erased.position > position)) {
      position = erased.position;
    }
  }
  return position;
}
