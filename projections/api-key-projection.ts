import type { PoolClient } from '../shared/db/pool.ts';
import type { RecordedEvent } from '../shared/event-store/event-store.ts';
import type { ApiKeyEvent } from '../shared/domain/api-key/api-key-events.ts';
import type { Projection } from './projection.ts';

/** Read model `api_keys` (infra/migrations/010_teams_members_api_keys.sql): what authentication reads. */
export const apiKeyProjection: Projection = {
  name: 'api_keys',
  tables: ['api_keys'],
  async apply(client: PoolClient, events: RecordedEvent[], table: (name: string) => string) {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as ApiKeyEvent;
      switch (event.type) {
        case 'api_key.created':
          await client.query(
            `insert into ${table('api_keys')} (id, team_id, name, scopes, key_hash, expires_at, created_at)
             values ($1, $2, $3, $4, $5, $6, $7) on conflict (id) do nothing`,
            [
              event.data.api_key_id,
              event.data.team_id,
              event.data.name,
              event.data.scopes,
              event.data.key_hash,
              event.data.expires_at,
              event.data.created_at,
            ],
          );
          break;
        case 'api_key.revoked':
          await client.query(
            `update ${table('api_keys')} set revoked_at = $2 where id = $1 and revoked_at is null`,
            [event.data.api_key_id, event.data.revoked_at],
          );
          break;
        default:
          break;
      }
    }
  },
};
