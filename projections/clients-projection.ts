import { openSealed } from '../shared/privacy/personal-data-vault.ts';
import type { ClientEvent } from '../shared/domain/client/client-events.ts';
import type { Projection } from './projection.ts';

/**
 * clients: one row per client (GET /api/v1/clients, GET /api/v1/clients/:id). Personal
 * fields are opened with the client's key inside the projection's transaction; a client
 * whose key was erased gets nulls, live and on rebuild alike.
 */
export const clientsProjection: Projection = {
  name: 'clients',
  tables: ['clients'],
  async apply(client, events, table) {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as ClientEvent;
      switch (event.type) {
        case 'client.created': {
          const { data } = event;
          const [name, email, company, phone, notes, customFields] = await openSealed(client, [
            data.name,
            data.email,
            data.company,
            data.phone,
            data.notes,
            data.custom_fields,
          ]);
          await client.query(
            `insert into ${table('clients')}
               (id, team_id, name, email, company, phone, notes, custom_fields,
                locale, date_format, timezone, created_at, position)
             values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13)
             on conflict (id) do nothing`,
            [
              data.client_id,
              data.team_id,
              name,
              email,
              company,
              phone,
              notes,
              customFields ?? '{}',
              data.locale,
              data.date_format,
              data.timezone,
              data.created_at,
              String(recorded.position),
            ],
          );
          break;
        }
        case 'client.erased':
          // The key is gone: drop every personal value this row had opened.
          await client.query(
            `update ${table('clients')}
             set name = null, email = null, company = null, phone = null, notes = null,
                 custom_fields = '{}'::jsonb, erased_at = $2
             where id = $1`,
            [event.data.client_id, event.data.erased_at],
          );
          break;
        default:
          break;
      }
    }
  },
};
