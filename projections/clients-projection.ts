import { openSealed, type SealedValue } from '../shared/privacy/personal-data-vault.ts';
import type { ClientEvent } from '../services/clients/client-events.ts';
import {
  CLIENT_EVENT_TYPES,
  clientKey,
  foldClient,
  type ClientRow,
  type ClientsBatch,
  type OpenedClient,
} from './clients-fold.ts';
import { readModelProjection } from '../shared/projections/projection.ts';

/**
 * clients: one row per client (GET /api/v1/clients, GET /api/v1/clients/:id). The SQL half
 * of the read model; clients-fold.ts folds the events. Personal fields are opened with the
 * client's key inside the projection's transaction; a client whose key was erased gets
 * nulls, live and on rebuild alike.
 */
export const clientsProjection = readModelProjection<ClientsBatch>({
  name: 'clients',
  tables: ['clients'],
  canHandle: CLIENT_EVENT_TYPES,

  async load(client, events, table) {
    // Every sealed value of the batch, opened with one key lookup.
    const created = events.flatMap((recorded) => {
      const event = { type: recorded.type, data: recorded.data } as ClientEvent;
      return event.type === 'client.created' ? [{ id: recorded.id, data: event.data }] : [];
    });
    const sealed: Array<SealedValue | string | null | undefined> = created.flatMap(({ data }) => [
      data.name,
      data.email,
      data.company,
      data.phone,
      data.notes,
      data.custom_fields,
    ]);
    const texts = await openSealed(client, sealed);
    const opened = new Map<string, OpenedClient>();
    created.forEach(({ id }, index) => {
      const [name, email, company, phone, notes, customFields] = texts.slice(index * 6, index * 6 + 6);
      opened.set(id, {
        name: name ?? null,
        email: email ?? null,
        company: company ?? null,
        phone: phone ?? null,
        notes: notes ?? null,
        custom_fields: customFields ?? null,
      });
    });

    // The changed fields of each update, opened the same way.
    const updates = events.flatMap((recorded) => {
      const event = { type: recorded.type, data: recorded.data } as ClientEvent;
      return event.type === 'client.updated' ? [{ id: recorded.id, changes: event.data.changes }] : [];
    });
    const changed = updates.flatMap(({ changes }) => Object.entries(changes));
    const changedTexts = await openSealed(
      client,
      changed.map(([, value]) => value),
    );
    const openedChanges = new Map<string, Partial<OpenedClient>>();
    let next = 0;
    for (const { id, changes } of updates) {
      const fields: Partial<OpenedClient> = {};
      for (const field of Object.keys(changes)) {
        fields[field as keyof OpenedClient] = changedTexts[next++] ?? null;
      }
      openedChanges.set(id, fields);
    }

    const ids = [
      ...new Set(events.map((recorded) => clientKey((recorded.data as { client_id: string }).client_id))),
    ];
    const loaded = await client.query<ClientRow>(
      `select id, team_id, name, email, company, phone, notes, custom_fields::text as custom_fields,
              locale, date_format, timezone, created_at::text as created_at, erased_at::text as erased_at,
              position::text as position
       from ${table('clients')} where id = any($1::uuid[])`,
      [ids],
    );
    return {
      rows: new Map(loaded.rows.map((row) => [clientKey(row.id), row])),
      dirty: new Set(),
      opened,
      openedChanges,
    };
  },

  fold: foldClient,

  async persist(client, { rows, dirty }, table) {
    if (dirty.size === 0) return;
    await client.query(
      `insert into ${table('clients')}
         (id, team_id, name, email, company, phone, notes, custom_fields,
          locale, date_format, timezone, created_at, erased_at, position)
       select id, team_id, name, email, company, phone, notes, custom_fields::jsonb,
              locale, date_format, timezone, created_at, erased_at, position
       from jsonb_to_recordset($1::jsonb) as r(
         id uuid, team_id uuid, name text, email text, company text, phone text, notes text,
         custom_fields text, locale text, date_format text, timezone text,
         created_at timestamptz, erased_at timestamptz, position bigint)
       on conflict (id) do update
         set name = excluded.name, email = excluded.email, company = excluded.company,
             phone = excluded.phone, notes = excluded.notes, custom_fields = excluded.custom_fields,
             erased_at = excluded.erased_at`,
      [JSON.stringify([...dirty].map((key) => rows.get(key)!))],
    );
  },
});
