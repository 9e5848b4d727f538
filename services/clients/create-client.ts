import { randomUUID } from 'node:crypto';
import { assertNoShortLinks, clientDecider } from './client-decider.ts';
import { commandHoldingEmail, releaseEmails, reserveEmail } from './client-email-index.ts';
import { clientTokens, writeSearchTokens } from './client-search-index.ts';
import { clientStream, type ClientInput } from './client-events.ts';
import type { EventStore } from '../../shared/event-store/event-store.ts';
import type { PersonalDataVault, SealedValue } from '../../shared/privacy/personal-data-vault.ts';
import { DomainError } from '../../shared/commands/decider.ts';
import type { ReadClient } from '../../projections/read-client.ts';
import { teamById } from '../../projections/teams/queries.ts';
import { type CommandMetadata, type PipelineDeps } from '../../shared/commands/handle-command.ts';

export interface CreateClientOutcome {
  /** False when a client with this email already existed in the team (nothing was created). */
  created: boolean;
  clientId: string;
  /** Position of the client's creation in the log: wait for it before reading the read model. */
  position: bigint | undefined;
}

/** A create request's details: the optional ones may be missing or null. */
export interface ClientRequest {
  name: string;
  email: string;
  company?: string | null;
  phone?: string | null;
  notes?: string | null;
  custom_fields?: Record<string, unknown> | null;
  locale?: string;
  date_format?: string;
  timezone?: string;
}

/** The settings a client without its own takes when the team is not found. */
const FALLBACK_SETTINGS = { locale: 'en-US', date_format: 'MM/DD/YYYY', timezone: 'UTC' };

/**
 * The client to create from a request of either face: missing details empty, and the
 * team's locale, date format and time zone where the request gives none.
 */
export async function clientInput(
  db: ReadClient,
  teamId: string,
  body: ClientRequest,
): Promise<Omit<ClientInput, 'client_id'>> {
  const defaults = (await teamById(db, teamId)) ?? FALLBACK_SETTINGS;
  return {
    team_id: teamId,
    name: body.name,
    email: body.email,
    company: body.company ?? null,
    phone: body.phone ?? null,
    notes: body.notes ?? null,
    custom_fields: body.custom_fields ?? {},
    locale: body.locale ?? defaults.locale,
    date_format: body.date_format ?? defaults.date_format,
    timezone: body.timezone ?? defaults.timezone,
    locale_chosen: body.locale !== undefined,
    date_format_chosen: body.date_format !== undefined,
  };
}

/**
 * POST /api/v1/clients on the write side. Email uniqueness per team holds in the email
 * index table (client-email-index.ts), whichever event store is configured:
 *
 * 1. the rules run first (a refused create reserves nothing);
 * 2. the email is reserved for a new client id (a row keyed by the email's blind index):
 *    of racing creates one inserts the row, the others find the holder;
 * 3. the holder's client stream is created (expected revision no_stream), and in the same
 *    transaction its search tokens (client-search-index.ts). A holder whose stream is still
 *    empty (a create that stopped between 2 and 3) is completed by the next create of that
 *    email. Racing creates of the holder decide nothing after the first, so every racer
 *    answers with the same client.
 */
export async function createClient(
  deps: PipelineDeps & { vault: PersonalDataVault },
  input: Omit<ClientInput, 'client_id'>,
  now: Date,
  metadata: CommandMetadata,
): Promise<CreateClientOutcome> {
  assertNoShortLinks(input);
  const newId = randomUUID();
  const clientId = await reserveEmail(deps, input.team_id, input.email, newId);
  const stream = clientStream(clientId);
  if (clientId !== newId) {
    // Someone else holds the email: their client, or one they are creating right now.
    const existing = await waitForStream(deps.eventStore, stream);
    if (existing) return { created: false, clientId, position: existing };
  }

  // The first seal creates the client's key; the others use it.
  const seal = (value: string | null) => deps.vault.seal(input.team_id, clientId, value);
  const name = await seal(input.name);
  const [email, company, phone, notes, customFields] = await Promise.all([
    seal(input.email),
    seal(input.company),
    seal(input.phone),
    seal(input.notes),
    seal(JSON.stringify(input.custom_fields)),
  ]);
  const tokens = await clientTokens(deps.vault, input.team_id, input);
  const result = await commandHoldingEmail(
    deps,
    {
      streamId: stream,
      decider: clientDecider,
      command: {
        type: 'CreateClient',
        data: { ...input, client_id: clientId },
        sealed: {
          name: name as SealedValue,
          email: email as SealedValue,
          company,
          phone,
          notes,
          custom_fields: customFields as SealedValue,
        },
        metadata: { now },
      },
      metadata,
      writeRows: async (decided, tx) => {
        if (decided.events.length > 0) await writeSearchTokens(tx, input.team_id, clientId, tokens);
      },
    },
    async (error) => {
      // Refused by the rules: nothing was appended, the address is free again.
      if (error instanceof DomainError && clientId === newId) {
        await releaseEmails(deps.pool, input.team_id, clientId);
      }
    },
  );
  if (result.events.length > 0) return { created: true, clientId, position: result.position };
  const winner = await deps.eventStore.readStream(stream);
  return { created: false, clientId, position: winner.at(-1)?.position };
}

const HOLDER_WAIT_MS = 2000;
const HOLDER_POLL_MS = 20;

/**
 * The position of the last event of `stream` once it exists; undefined when it stays
 * empty for HOLDER_WAIT_MS (the holder stopped before creating its client: the caller
 * completes the creation).
 */
async function waitForStream(store: EventStore, stream: string): Promise<bigint | undefined> {
  for (let waited = 0; ; waited += HOLDER_POLL_MS) {
    const events = await store.readStream(stream);
    if (events.length > 0) return events.at(-1)!.position;
    if (waited >= HOLDER_WAIT_MS) return undefined;
    await new Promise((resolve) => setTimeout(resolve, HOLDER_POLL_MS));
  }
}
