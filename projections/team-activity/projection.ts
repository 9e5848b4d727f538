import { readModelProjection } from '../../shared/projections/projection.ts';
import { TEAM_ACTIVITY_EVENT_TYPES, toActivityRecord, type ActivityRecord } from './fold.ts';

/**
 * team_activity: the workspace's audit view (GET /workspace/v1/audit): sign-ins, lockouts,
 * key creations, rotations and revocations, member changes, team settings changes.
 * ./fold.ts makes the records; `persist` writes them.
 */
export const teamActivityProjection = readModelProjection<ActivityRecord[]>({
  name: 'team_activity',
  tables: ['team_activity'],
  canHandle: TEAM_ACTIVITY_EVENT_TYPES,
  load: async () => [],
  fold(records, event) {
    const record = toActivityRecord(event);
    if (record) records.push(record);
    return records;
  },
  async persist(client, records, table) {
    if (records.length === 0) return;
    await client.query(
      `insert into ${table('team_activity')} (id, team_id, type, actor_member_id, data, occurred_at, position)
       select id, team_id, type, actor_member_id, data, occurred_at, position
       from jsonb_to_recordset($1::jsonb) as r(
         id uuid, team_id uuid, type text, actor_member_id uuid, data jsonb, occurred_at timestamptz, position bigint)
       on conflict (id) do nothing`,
      [
        JSON.stringify(
          records.map((record) => ({
            id: record.id,
            team_id: record.teamId,
            type: record.type,
            actor_member_id: record.actorMemberId,
            data: record.data,
            occurred_at: record.occurredAt,
            position: String(record.position),
          })),
        ),
      ],
    );
  },
});
