import type { ReadClient } from '../read-client.ts';

/** The reads other code may run on the team_activity read model (./projection.ts writes it). */

export interface ActivityRow {
  id: string;
  type: string;
  actor_member_id: string | null;
  data: Record<string, unknown>;
  occurred_at: Date;
  position: string;
}

/**
 * The team's activity, newest first: up to `count` entries before the log position
 * `before` (all when null).
 */
export async function teamActivity(
  db: ReadClient,
  teamId: string,
  before: string | null,
  count: number,
): Promise<ActivityRow[]> {
  const { rows } = await db.query<ActivityRow>(
    `select id, type, actor_member_id, data, occurred_at, position from team_activity
     where team_id = $1 and ($2::bigint is null or position < $2::bigint)
     order by position desc limit $3`,
    [teamId, before, count],
  );
  return rows;
}
