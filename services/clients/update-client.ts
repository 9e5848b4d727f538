import { assertNoShortLinks, clientDecider, type ClientChanges } from './client-decider.ts';
import {
  clientEmailDecider,
  clientEmailStream,
  clientEmailStreamOfHash,
  emailHash,
} from './client-email-index.ts';
import { clientStream, type ClientEvent, type ClientUpdated } from './client-events.ts';
import { DomainError, fold } from '../../shared/commands/decider.ts';
import {
  handleCommand,
  toDomainEvent,
  type CommandMetadata,
  type PipelineDeps,
} from '../../shared/commands/handle-command.ts';
import type { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';

export const EMAIL_TAKEN = 'Another client of your team already has this email address';

export interface UpdateClientOutcome {
  changed: boolean;
  position: bigint | undefined;
}

/**
 * A change of a client's details on the write side. The per-team unique email holds as on
 * create (create-client.ts): a new email is first reserved for this client in the email
 * index with the expected revision, so of two racing updates or creates to one address
 * exactly one holds it and the others are refused (409 email_taken). Then client.updated
 * is appended; a racing update that changed the email in between makes it refuse
 * (client_changed) and the reservation is given back. Last, the old address is released
 * so a new client may use it.
 */
export async function updateClient(
  deps: PipelineDeps & { vault: PersonalDataVault },
  target: { team_id: string; client_id: string },
  changes: ClientChanges,
  now: Date,
  metadata: CommandMetadata,
): Promise<UpdateClientOutcome> {
  assertNoShortLinks({
    name: changes.name ?? '',
    company: changes.company ?? null,
    notes: changes.notes ?? null,
    custom_fields: changes.custom_fields ?? {},
  });
  const stream = clientStream(target.client_id);
  const recorded = await deps.eventStore.readStream(stream);
  const before = fold(clientDecider, recorded.map(toDomainEvent<ClientEvent>));
  if (before.status !== 'active' || before.teamId !== target.team_id) {
    throw new DomainError('client_not_found', 'Client not found');
  }
  if (Object.keys(changes).length === 0) return { changed: false, position: undefined };

  const email = changes.email;
  if (email !== undefined) {
    const reservation = await handleCommand(deps, {
      streamId: clientEmailStream(target.team_id, email),
      decider: clientEmailDecider,
      command: {
        type: 'ReserveEmail',
        data: { team_id: target.team_id, email, client_id: target.client_id },
      },
      metadata,
    });
    if (reservation.state.clientId !== target.client_id) throw new DomainError('email_taken', EMAIL_TAKEN);
  }

  const seal = (value: string | null) => deps.vault.seal(target.team_id, target.client_id, value);
  const sealed: ClientUpdated['data']['changes'] = {};
  if (changes.name !== undefined) sealed.name = (await seal(changes.name))!;
  if (email !== undefined) sealed.email = (await seal(email))!;
  if (changes.company !== undefined) sealed.company = await seal(changes.company);
  if (changes.phone !== undefined) sealed.phone = await seal(changes.phone);
  if (changes.notes !== undefined) sealed.notes = await seal(changes.notes);
  if (changes.custom_fields !== undefined) {
    sealed.custom_fields = (await seal(JSON.stringify(changes.custom_fields)))!;
  }

  let result;
  try {
    result = await handleCommand(deps, {
      streamId: stream,
      decider: clientDecider,
      command: {
        type: 'UpdateClient',
        data: { ...target, changes, expected_email_hash: before.emailHash },
        sealed,
        metadata: { now },
      },
      metadata,
    });
  } catch (error) {
    if (email !== undefined) await release(deps, target, emailHash(email), metadata);
    throw error;
  }
  const updated = result.events.find((event) => event.type === 'client.updated');
  if (updated?.type === 'client.updated' && updated.data.email_hash !== null) {
    await release(deps, target, before.emailHash, metadata);
  }
  return { changed: result.events.length > 0, position: result.position };
}

async function release(
  deps: PipelineDeps,
  target: { team_id: string; client_id: string },
  hash: string,
  metadata: CommandMetadata,
): Promise<void> {
  await handleCommand(deps, {
    streamId: clientEmailStreamOfHash(target.team_id, hash),
    decider: clientEmailDecider,
    command: {
      type: 'ReleaseEmail',
      data: { team_id: target.team_id, email_hash: hash, client_id: target.client_id },
    },
    metadata,
  });
}
