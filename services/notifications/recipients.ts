import type { PoolClient } from '../../shared/db/pool.ts';
import {
  DEFAULT_CHANNEL,
  type NotificationChannel,
  type NotificationKind,
} from './contract/notifications.ts';

export interface Recipient {
  memberId: string;
  channel: NotificationChannel;
}

/**
 * Who hears of an onboarding's news and how: its assignee while a current member of the
 * team, else every current owner and admin; each with their choice for the kind (default
 * `email`). Members who chose `off` are left out. Scoped by the team.
 */
export async function recipientsOf(
  tx: Pick<PoolClient, 'query'>,
  teamId: string,
  assignedTo: string | null,
  kind: NotificationKind,
): Promise<Recipient[]> {
  const { rows } = await tx.query<{ id: string; channel: NotificationChannel | null }>(
    `with assignee as (
       select id from team_members where id = $2::uuid and team_id = $1 and removed_at is null
     )
     select m.id, p.channel
     from team_members m
     left join notification_preferences p on p.member_id = m.id and p.kind = $3
     where m.team_id = $1 and m.removed_at is null
       and (m.id in (select id from assignee)
            or (not exists (select 1 from assignee) and m.role in ('owner', 'admin')))
     order by m.created_at, m.id`,
    [teamId, assignedTo, kind],
  );
  return rows
    .map((row) => ({ memberId: row.id, channel: row.channel ?? DEFAULT_CHANNEL }))
    .filter((recipient) => recipient.channel !== 'off');
}
