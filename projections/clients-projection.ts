import { openSealed, type SealedValue } from '../shared/privacy/personal-data-vault.ts';
import type { ClientEvent } from '../shared/domain/client/client-events.ts';
import type { Projection } from './projection.ts';

/**
 * clients: one row per client (GET /api/v1/clients, GET /api/v1/clients/:id). Personal
 * fields are opened with the client's key inside the projection's transaction; a client
 * whose key was erased gets nulls, live and on rebuild alike.
 *
 * Batch-style: the rows a batch touches are loaded with one select, the events are folded
 * into them in memory in log order, and the changed rows are written with one upsert.
 * Timestamps, positions and jsonb travel as PostgreSQL text, so rows round-trip exactly.
 */

interface ClientRow {
  id: string;
  team_id: string;
  name: string | null;
  email: string | null;
  company: string | null;
  phone: string | null;
  notes: string | null;
  /** jsonb as text */
  custom_fields: string;
  locale: string;
  date_format: string;
  timezone: string;
  created_at: string;
  erased_at: string | null;
  position: string;
}

const uuidKey = (id: string) => id.toLowerCase();

export const clientsProjection: Projection = {
  name: 'clients',
  tables: ['clients'],
  async apply(client, events, table) {
    const clients = table('clients');
    const relevant = events.filter(
      (recorded) => recorded.type === 'client.created' || recorded.type === 'client.erased',
    );
    if (relevant.length === 0) return;

    // Every sealed value of the batch, opened with one key lookup.
    const sealed: Array<SealedValue | string | null | undefined> = [];
    const sealedAt = new Map<number, number>();
    relevant.forEach((recorded, index) => {
      const event = { type: recorded.type, data: recorded.data } as ClientEvent;
      if (event.type !== 'client.created') return;
      const { data } = event;
      sealedAt.set(index, sealed.length);
      sealed.push(data.name, data.email, data.company, data.phone, data.notes, data.custom_fields);
    });
    const opened = await openSealed(client, sealed);

    const ids = [
      ...new Set(relevant.map((recorded) => uuidKey((recorded.data as { client_id: string }).client_id))),
    ];
    const loaded = await client.query<ClientRow>(
      `select id, team_id, name, email, company, phone, notes, custom_fields::text as custom_fields,
              locale, date_format, timezone, created_at::text as created_at, erased_at::text as erased_at,
              position::text as position
       from ${clients} where id = any($1::uuid[])`,
      [ids],
    );
    const rows = new Map<string, ClientRow>(loaded.rows.map((row) => [uuidKey(row.id), row]));
    const dirty = new Set<string>();

    relevant.forEach((recorded, index) => {
      const event = { type: recorded.type, data: recorded.data } as ClientEvent;
      switch (event.type) {
        case 'client.created': {
          const { data } = event;
          const key = uuidKey(data.client_id);
          if (rows.has(key)) break;
          const at = sealedAt.get(index)!;
          const [name, email, company, phone, notes, customFields] = opened.slice(at, at + 6);
          rows.set(key, {
            id: data.client_id,
            team_id: data.team_id,
            name: name ?? null,
            email: email ?? null,
            company: company ?? null,
            phone: phone ?? null,
            notes: notes ?? null,
            custom_fields: customFields ?? '{}',
            locale: data.locale,
            date_format: data.date_format,
            timezone: data.timezone,
            created_at: data.created_at,
            erased_at: null,
            position: String(recorded.position),
          });
          dirty.add(key);
          break;
        }
        case 'client.erased': {
          // The key is gone: drop every personal value this row had opened.
          const key = uuidKey(event.data.client_id);
          const row = rows.get(key);
          if (!row) break;
          Object.assign(row, {
            name: null,
            email: null,
            company: null,
            phone: null,
            notes: null,
            custom_fields: '{}',
            erased_at: event.data.erased_at,
          });
          dirty.add(key);
          break;
        }
        default:
          break;
      }
    });

    if (dirty.size === 0) return;
    await client.query(
      `insert into ${clients}
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
};
