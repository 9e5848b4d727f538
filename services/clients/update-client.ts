import { assertNoShortLinks, clientDecider, type ClientChanges } from './client-decider.ts';
import { commandHoldingEmail, reserveEmail, settleEmails } from './client-email-index.ts';
import { clientTokens, writeSearchTokens } from './client-search-index.ts';
import { clientStream, type ClientEvent, type ClientUpdated } from './client-events.ts';
import { DomainError, fold } from '../../shared/commands/decider.ts';
import {
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
 * index, so of two racing updates or creates to one address exactly one holds it and the
 * others are refused (409 email_taken). Then client.updated is appended, with the client's
 * search tokens rewritten in its transaction when the name, email or company changed; a
 * racing update that changed the email in between makes it refuse (client_changed). Last,
 * the client keeps only the address it now has: the old one (or the refused new one) is
 * released so another client may use it.
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
    const holder = await reserveEmail(deps, target.team_id, email, target.client_id);
    if (holder !== target.client_id) throw new DomainError('email_taken', EMAIL_TAKEN);
  }

  // The search reads the name, email and company: their tokens are rewritten with the change.
  const searched = changes.name !== undefined || email !== undefined || changes.company !== undefined;

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

  const result = await commandHoldingEmail(
    deps,
    {
      streamId: stream,
      decider: clientDecider,
      command: {
        type: 'UpdateClient',
        data: { ...target, changes, expected_email: before.email },
        sealed,
        metadata: { now },
      },
      metadata,
      writeRows: async (decided, tx) => {
        const after = decided.state;
        if (!searched || decided.events.length === 0 || after.status !== 'active') return;
        // The state after the change, so a racing change of another field is kept.
        const [name, current, company] = await deps.vault.openAll([after.name, after.email, after.company]);
        const tokens = await clientTokens(deps.vault, target.team_id, {
          name: name ?? null,
          email: current ?? null,
          company: company ?? null,
        });
        await writeSearchTokens(tx, target.team_id, target.client_id, tokens);
      },
    },
    async () => {
      // The refusal is the answer: a failure to give the address back must not hide it.
      if (email !== undefined)
        await settleEmails(deps, target.team_id, target.client_id).catch(() => undefined);
    },
  );
  if (email !== undefined) await settleEmails(deps, target.team_id, target.client_id);
  return { changed: result.events.length > 0, position: result.position };
}
