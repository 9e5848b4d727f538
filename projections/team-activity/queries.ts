import type { ReadClient } from '../read-client.ts';

/** The reads other code may run on the team_activity read model (./projection.ts writes it). */

export interface ActivityRow {
  id: string;
  type: string;
  actor_member_id: string | null;
  data: Record<string, unknown>;
  occurred_at: Date;
  position: string;
  /** The actor's name as it is now (null: the system, or a member no longer in the table). */
  actor_name: string | null;
  /**
   * What the entry is about, in words: an API key's name and prefix ("Zapier cos_ab12cd34…"),
   * a member's name, an invited address; null when the entry is about the team itself.
   */
  object_name: string | null;
}

/** The object of an entry by its type, from the tables that name it now (or its own data). */
const OBJECT_NAME = `case
    when a.type like 'api_key_%' then (
      select k.name || coalesce(' ' || k.key_prefix || '…', '') from api_keys k
      where k.team_id = a.team_id and k.id::text = a.data->>'api_key_id')
    when a.type in ('member_invited', 'invitation_resent', 'invitation_revoked') then a.data->>'email'
    when a.data ? 'member_id' then coalesce(
      (select m.name from team_members m where m.team_id = a.team_id and m.id::text = a.data->>'member_id'),
      a.data->>'name')
    else null
  end`;

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
    `select a.id, a.type, a.actor_member_id, a.data, a.occurred_at, a.position,
            (select m.name from team_members m where m.team_id = a.team_id and m.id = a.actor_member_id) as actor_name,
            ${OBJECT_NAME} as object_name
     from team_activity a
     where a.team_id = $1 and ($2::bigint is null or a.position < $2::bigint)
     order by a.position desc limit $3`,
    [teamId, before, count],
  );
  return rows;
}
