import { openSealed } from '../../shared/privacy/personal-data-vault.ts';
import {
  emailBlindIndex,
  sealedText,
  storedValue,
  teamIndexKeyIn,
} from '../../shared/privacy/sealed-columns.ts';
import type { ClientEvent } from '../../services/clients/client-events.ts';
import {
  CLIENT_EVENT_TYPES,
  clientKey,
  foldClient,
  type ClientRow,
  type ClientsBatch,
  type OpenedClient,
} from './fold.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import { copyRows } from '../../shared/db/copy-rows.ts';
import { liveTable, readModelProjection, streamsBegunIn } from '../../shared/projections/projection.ts';

/**
 * clients: one row per client (GET /api/v1/clients, GET /api/v1/clients/:id). The SQL half
 * of the read model; fold.ts folds the events. Personal fields keep the sealed
 * envelopes of the events (shared/privacy/sealed-columns.ts), opened when read; the email's
 * blind index (email_hash) serves the email filter. An erased client's fields are null.
 */
export const clientsProjection = readModelProjection<ClientsBatch>({
  name: 'clients',
  tables: ['clients'],
  canHandle: CLIENT_EVENT_TYPES,

  async load(client, events, table) {
    // The sealed envelopes of each client.created, kept as they are (sealed-columns.ts).
    const opened = new Map<string, OpenedClient>();
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as ClientEvent;
      if (event.type !== 'client.created') continue;
      const { data } = event;
      opened.set(recorded.id, {
        name: sealedText(data.name),
        email: sealedText(data.email),
        company: sealedText(data.company),
        phone: sealedText(data.phone),
        notes: sealedText(data.notes),
        custom_fields: sealedText(data.custom_fields),
      });
    }

    // The changed fields of each update, kept sealed the same way.
    const openedChanges = new Map<string, Partial<OpenedClient>>();
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as ClientEvent;
      if (event.type !== 'client.updated') continue;
      const fields: Partial<OpenedClient> = {};
      for (const [field, value] of Object.entries(event.data.changes)) {
        fields[field as keyof OpenedClient] = sealedText(value);
      }
      openedChanges.set(recorded.id, fields);
    }

    const clientOf = (recorded: RecordedEvent) =>
      clientKey((recorded.data as { client_id: string }).client_id);
    const begun = table === liveTable ? new Set<string>() : streamsBegunIn(events, clientOf);
    const ids = [...new Set(events.map(clientOf))].filter((key) => !begun.has(key));
    const loaded = await client.query<ClientRow>(
      `select id, team_id, name, email, company, phone, notes, custom_fields::text as custom_fields,
              locale, date_format, timezone, locale_chosen, date_format_chosen,
              created_at::text as created_at, erased_at::text as erased_at,
              position::text as position
       from ${table('clients')} where id = any($1::uuid[])`,
      [ids],
    );
    const rows = new Map(loaded.rows.map((row) => [clientKey(row.id), row]));
    return {
      rows,
      dirty: new Set(),
      opened,
      openedChanges,
      ...(table !== liveTable && { stored: new Set(rows.keys()) }),
    };
  },

  fold: foldClient,

  async persist(client, { rows, dirty, stored }, table) {
    if (dirty.size === 0) return;
    const all = [...dirty].map((key) => rows.get(key)!);
    const allHashes = await blindIndexes(client, all);
    const hashed = all.map((row, index) => ({ ...row, email_hash: allHashes[index] ?? null }));
    const isNew = (row: ClientRow) => stored !== undefined && !stored.has(clientKey(row.id));
    // A rebuild writes the rows its batch made (none stored before it) with COPY.
    await copyRows(client, table('clients'), CLIENT_COLUMNS, hashed.filter(isNew));
    const written = hashed.filter((row) => !isNew(row));
    if (written.length === 0) return;
    await client.query(
      `insert into ${table('clients')}
         (id, team_id, name, email, email_hash, company, phone, notes, custom_fields,
          locale, date_format, timezone, locale_chosen, date_format_chosen, created_at, erased_at, position)
       select id, team_id, name, email, email_hash, company, phone, notes, custom_fields::jsonb,
              locale, date_format, timezone, locale_chosen, date_format_chosen, created_at, erased_at, position
       from jsonb_to_recordset($1::jsonb) as r(
         id uuid, team_id uuid, name text, email text, email_hash text, company text, phone text, notes text,
         custom_fields text, locale text, date_format text, timezone text,
         locale_chosen boolean, date_format_chosen boolean, created_at timestamptz, erased_at timestamptz, position bigint)
       on conflict (id) do update
         set name = excluded.name, email = excluded.email, email_hash = excluded.email_hash,
             company = excluded.company,
             phone = excluded.phone, notes = excluded.notes, custom_fields = excluded.custom_fields,
             locale = excluded.locale, date_format = excluded.date_format, timezone = excluded.timezone,
             locale_chosen = excluded.locale_chosen, date_format_chosen = excluded.date_format_chosen,
             erased_at = excluded.erased_at`,
      [JSON.stringify(written)],
    );
  },
});

const CLIENT_COLUMNS = [
  'id',
  'team_id',
  'name',
  'email',
  'email_hash',
  'company',
  'phone',
  'notes',
  'custom_fields',
  'locale',
  'date_format',
  'timezone',
  'locale_chosen',
  'date_format_chosen',
  'created_at',
  'erased_at',
  'position',
] as const;

/**
 * The email's blind index of each row (null without an email, or once its key is erased):
 * the emails are opened once here, with one key lookup for the batch, and never stored plain.
 * This is the one opening a projection does: the index is keyed by the team, not carried by
 * the event.
 */
async function blindIndexes(client: Parameters<typeof openSealed>[0], rows: ClientRow[]) {
  const emails = await openSealed(
    client,
    rows.map((row) => storedValue(row.email)),
  );
  const indexKeys = new Map<string, Buffer>();
  for (const teamId of new Set(rows.map((row) => row.team_id))) {
    indexKeys.set(teamId, await teamIndexKeyIn(client, teamId));
  }
  return rows.map((row, index) => {
    const email = emails[index];
    if (email === null || email === undefined) return null;
    return emailBlindIndex(indexKeys.get(row.team_id)!, email.trim().toLowerCase());
  });
}
