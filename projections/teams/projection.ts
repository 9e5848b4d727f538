import { readModelProjection } from '../../shared/projections/projection.ts';
import { foldTeam, TEAM_EVENT_TYPES, type TeamChange } from './fold.ts';

/**
 * Read models `teams` and `team_members` (infra/migrations/010_teams_members_api_keys.sql).
 * The SQL half; ./fold.ts folds the events into row changes, written here in log order.
 */
export const teamProjection = readModelProjection<TeamChange[]>({
  name: 'teams',
  tables: ['teams', 'team_members'],
  canHandle: TEAM_EVENT_TYPES,
  load: async () => [],
  fold: foldTeam,
  async persist(client, changes, table) {
    for (const change of changes) {
      switch (change.kind) {
        case 'team_created': {
          const names = Object.keys(change.columns);
          await client.query(
            `insert into ${table('teams')} (${names.join(', ')})
             values (${names.map((_, index) => `$${index + 1}`).join(', ')})
             on conflict (id) do nothing`,
            Object.values(change.columns),
          );
          break;
        }
        case 'team_updated': {
          const names = Object.keys(change.columns);
          await client.query(
            `update ${table('teams')} set ${names.map((name, index) => `${name} = $${index + 2}`).join(', ')}
             where id = $1`,
            [change.teamId, ...Object.values(change.columns)],
          );
          break;
        }
        case 'member_added': {
          const { row } = change;
          await client.query(
            `insert into ${table('team_members')} (id, team_id, name, email, role, created_at)
             values ($1, $2, $3, $4, $5, $6) on conflict (id) do nothing`,
            [row.id, row.team_id, row.name, row.email, row.role, row.created_at],
          );
          break;
        }
        case 'member_role_changed':
          await client.query(`update ${table('team_members')} set role = $2 where id = $1`, [
            change.id,
            change.role,
          ]);
          break;
        case 'member_locale_chosen':
          await client.query(`update ${table('team_members')} set locale = $2 where id = $1`, [
            change.id,
            change.locale,
          ]);
          break;
        case 'member_removed':
          await client.query(`update ${table('team_members')} set removed_at = $2 where id = $1`, [
            change.id,
            change.removed_at,
          ]);
          break;
      }
    }
  },
});
