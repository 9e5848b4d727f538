import { DomainError, type Decider, unhandledEvent, unknownCommand } from '../../shared/commands/decider.ts';
import { assertStorable } from '../../shared/validation/safe-text.ts';
import { findShortLink, stringsIn } from './short-links.ts';
import type {
  ClientCreated,
  ClientEvent,
  ClientInput,
  ClientSettingsChange,
  ClientUpdated,
  Sealed,
} from './client-events.ts';

/**
 * A client of a team. Creating is idempotent per client id: creating a client that
 * already exists decides nothing, and the caller answers with the existing client (the
 * email index, client-email-index.ts, maps one email of a team to one client id).
 */
export type ClientState =
  | { status: 'absent' }
  | (ClientHolder & { status: 'active' })
  | (ClientHolder & { status: 'erased'; erasedAt: string });

interface ClientHolder {
  clientId: string;
  teamId: string;
  createdAt: string;
  /** The current email, name and company, sealed (the search index is made of these). */
  email: Sealed;
  name: Sealed;
  company: Sealed | null;
}

/** The personal fields as they go into the event, sealed by the caller (I/O stays outside). */
export type SealedPersonalData = Pick<
  ClientCreated['data'],
  'name' | 'email' | 'company' | 'phone' | 'notes' | 'custom_fields'
>;

export type CreateClient = {
  type: 'CreateClient';
  /** Plain values: the rules read these. */
  data: ClientInput;
  /** The same personal values, sealed: the event carries these. */
  sealed: SealedPersonalData;
  metadata: { now: Date };
};

/** Erasure: recorded once; erasing an erased client decides nothing. */
export type EraseClient = {
  type: 'EraseClient';
  data: { client_id: string; team_id: string };
  metadata: { now: Date };
};

/** The fields a team edits on a client; undefined: unchanged. */
export type ClientChanges = Partial<
  Pick<ClientInput, 'name' | 'email' | 'company' | 'phone' | 'notes' | 'custom_fields'>
> & { settings?: ClientSettingsChange };

/**
 * A change of a client's details. The caller has already reserved a new email for this
 * client in the email index (update-client.ts); `changes` holds only what differs.
 */
export type UpdateClient = {
  type: 'UpdateClient';
  data: {
    client_id: string;
    team_id: string;
    changes: ClientChanges;
    /** With a new email: the sealed email the caller read; another one means a racing update won. */
    expected_email?: Sealed;
  };
  sealed: ClientUpdated['data']['changes'];
  metadata: { now: Date };
};

export type ClientCommand = CreateClient | UpdateClient | EraseClient;

/** Client-facing text: it reaches the client in emails ({{client_name}}, {{company}}) and the form. */
export const CLIENT_FACING_FIELDS = ['name', 'company', 'notes', 'custom_fields'] as const;

/**
 * 422 link_blocked: a short link in any client-facing text. Custom fields count with
 * every string inside them (values at any depth, not keys).
 */
export function assertNoShortLinks(data: Pick<ClientInput, (typeof CLIENT_FACING_FIELDS)[number]>): void {
  for (const field of CLIENT_FACING_FIELDS) {
    for (const text of stringsIn(data[field])) {
      const host = findShortLink(text);
      if (host) {
        throw new DomainError('link_blocked', 'Short links are not allowed in client details', {
          field,
          host,
        });
      }
    }
  }
}

function create(command: CreateClient, state: ClientState): ClientEvent[] {
  assertNoShortLinks(command.data);
  if (state.status !== 'absent') return [];
  const { locale, date_format, timezone, client_id, team_id, locale_chosen, date_format_chosen } =
    command.data;
  return [
    {
      type: 'client.created',
      data: {
        client_id,
        team_id,
        ...command.sealed,
        locale,
        date_format,
        timezone,
        ...(locale_chosen === undefined ? {} : { locale_chosen }),
        ...(date_format_chosen === undefined ? {} : { date_format_chosen }),
        created_at: command.metadata.now.toISOString(),
      },
    },
  ];
}

function update(command: UpdateClient, state: ClientState): ClientEvent[] {
  if (state.status !== 'active' || state.teamId !== command.data.team_id) {
    throw new DomainError('client_not_found', 'Client not found');
  }
  const { changes } = command.data;
  assertNoShortLinks({
    name: changes.name ?? '',
    company: changes.company ?? null,
    notes: changes.notes ?? null,
    custom_fields: changes.custom_fields ?? {},
  });
  const settings = changes.settings && Object.keys(changes.settings).length > 0 ? changes.settings : null;
  if (Object.keys(command.sealed).length === 0 && !settings) return [];
  if (changes.email !== undefined && !sameSealed(command.data.expected_email, state.email)) {
    throw new DomainError('client_changed', 'The client was changed at the same time; reload and try again');
  }
  return [
    {
      type: 'client.updated',
      data: {
        client_id: state.clientId,
        team_id: state.teamId,
        changes: command.sealed,
        ...(settings ? { settings } : {}),
        updated_at: command.metadata.now.toISOString(),
      },
    },
  ];
}

/** The same stored value (a sealed envelope's box is unique to one sealing). */
const sameSealed = (a: Sealed | undefined, b: Sealed) => JSON.stringify(a) === JSON.stringify(b);

function erase(command: EraseClient, state: ClientState): ClientEvent[] {
  if (state.status === 'absent' || state.teamId !== command.data.team_id) {
    throw new DomainError('client_not_found', 'Client not found');
  }
  if (state.status === 'erased') return [];
  return [
    {
      type: 'client.erased',
      data: {
        client_id: state.clientId,
        team_id: state.teamId,
        erased_at: command.metadata.now.toISOString(),
      },
    },
  ];
}

export const clientDecider: Decider<ClientState, ClientCommand, ClientEvent> = {
  initialState: () => ({ status: 'absent' }),
  evolve(state, event) {
    switch (event.type) {
      case 'client.created':
        return {
          status: 'active',
          clientId: event.data.client_id,
          teamId: event.data.team_id,
          createdAt: event.data.created_at,
          email: event.data.email,
          name: event.data.name,
          company: event.data.company,
        };
      case 'client.updated':
        if (state.status === 'absent') return state;
        return {
          ...state,
          email: event.data.changes.email ?? state.email,
          name: event.data.changes.name ?? state.name,
          company: event.data.changes.company !== undefined ? event.data.changes.company : state.company,
        };
      case 'client.erased':
        if (state.status === 'absent') return state;
        return { ...state, status: 'erased', erasedAt: event.data.erased_at };
      default:
        return unhandledEvent(event, state);
    }
  },
  decide(command, state) {
    assertStorable(command.data);
    switch (command.type) {
      case 'CreateClient':
        return create(command, state);
      case 'UpdateClient':
        return update(command, state);
      case 'EraseClient':
        return erase(command, state);
      default:
        throw unknownCommand(command);
    }
  },
};
