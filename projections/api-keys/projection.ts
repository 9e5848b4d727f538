import { API_KEY_EVENT_TYPES, foldApiKey, type ApiKeyChange } from './fold.ts';
import { readModelProjection } from '../../shared/projections/projection.ts';

/**
 * Read model `api_keys` (infra/migrations/010_teams_members_api_keys.sql): what
 * authentication reads. The SQL half; ./fold.ts folds the events into row changes,
 * written here in log order.
 */
export const apiKeyProjection = readModelProjection<ApiKeyChange[]>({
  name: 'api_keys',
  tables: ['api_keys'],
  canHandle: API_KEY_EVENT_TYPES,
  load: async () => [],
  fold: foldApiKey,
  async persist(client, changes, table) {
    for (const change of changes) {
      if (change.kind === 'created') {
        const { row } = change;
        await client.query(
          `insert into ${table('api_keys')} (id, team_id, name, scopes, key_hash, expires_at, created_at,
             key_prefix, created_by_member_id)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (id) do nothing`,
          [
            row.id,
            row.team_id,
            row.name,
            row.scopes,
            row.key_hash,
            row.expires_at,
            row.created_at,
            row.key_prefix,
            row.created_by_member_id,
          ],
        );
      } else {
        await client.query(
          `update ${table('api_keys')} set revoked_at = $2 where id = $1 and revoked_at is null`,
          [change.id, change.revoked_at],
        );
      }
    }
  },
});
