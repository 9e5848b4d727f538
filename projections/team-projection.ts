import type { PoolClient } from '../shared/db/pool.ts';
import type { RecordedEvent } from '../shared/event-store/event-store.ts';
import type { TeamEvent, TeamSettings } from '../shared/domain/team/team-events.ts';
import type { Projection } from './projection.ts';

const SETTING_COLUMNS = new Set<string>([
  'name',
  'plan',
  'timezone',
  'locale',
  'date_format',
  'email_sender_name',
  'sending_paused',
  'payments_connected',
  'unpaid',
  'new_recipient_cap',
]);

/** Columns of `teams` for each setting (monthly_onboarding_limit takes two columns). */
function settingColumns(settings: Partial<TeamSettings>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    if (name === 'monthly_onboarding_limit') {
      columns.monthly_onboarding_limit = typeof value === 'number' ? value : null;
      columns.monthly_onboarding_unlimited = value === 'unlimited';
    } else if (SETTING_COLUMNS.has(name)) {
      columns[name] = value;
    }
  }
  return columns;
}

/** Read models `teams` and `team_members` (infra/migrations/010_teams_members_api_keys.sql). */
export const teamProjection: Projection = {
  name: 'teams',
  tables: ['teams', 'team_members'],
  async apply(client: PoolClient, events: RecordedEvent[], table: (name: string) => string) {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as TeamEvent;
      switch (event.type) {
        case 'team.created': {
          const { team_id, created_at, ...settings } = event.data;
          const columns = { id: team_id, ...settingColumns(settings), created_at, updated_at: created_at };
          const names = Object.keys(columns);
          await client.query(
            `insert into ${table('teams')} (${names.join(', ')})
             values (${names.map((_, index) => `$${index + 1}`).join(', ')})
             on conflict (id) do nothing`,
            Object.values(columns),
          );
          break;
        }
        case 'team.updated': {
          const columns = { ...settingColumns(event.data.changes), updated_at: event.data.updated_at };
          const names = Object.keys(columns);
          await client.query(
            `update ${table('teams')} set ${names.map((name, index) => `${name} = $${index + 2}`).join(', ')}
             where id = $1`,
            [event.data.team_id, ...Object.values(columns)],
          );
          break;
        }
        case 'team.member_added':
          await client.query(
            `insert into ${table('team_members')} (id, team_id, name, email, role, created_at)
             values ($1, $2, $3, $4, $5, $6) on conflict (id) do nothing`,
            [
              event.data.member_id,
              event.data.team_id,
              event.data.name,
              event.data.email,
              event.data.role,
              event.data.added_at,
            ],
          );
          break;
        case 'team.member_removed':
          await client.query(`update ${table('team_members')} set removed_at = $2 where id = $1`, [
            event.data.member_id,
            event.data.removed_at,
          ]);
          break;
        default:
          break;
      }
    }
  },
};
