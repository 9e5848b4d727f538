import type { PoolClient } from '../../shared/db/pool.ts';
import { isUuid } from '../../shared/ids/uuid.ts';

export interface CurrentMember {
  name: string;
  email: string;
}

/**
 * A current member of the team: one of its members (team_members read model) that has not
 * been removed. Undefined for anyone else: a removed member, another team's, an unknown or
 * malformed id. Assignees, signers and the recipients of Notify team member are current
 * members only.
 */
export async function currentMember(
  db: Pick<PoolClient, 'query'>,
  teamId: string,
  memberId: string,
): Promise<CurrentMember | undefined> {
  if (!isUuid(memberId)) return undefined;
  const { rows } = await db.query<CurrentMember>(
    'select name, email from team_members where id = $1 and team_id = $2 and removed_at is null',
    [memberId, teamId],
  );
  return rows[0];
}
