import type { ReadClient } from '../read-client.ts';

/**
 * The reads other code may run on the hook_subscriptions read model (./projection.ts
 * writes it), through the read client (../read-client.ts).
 */

export interface HookSubscriptionRow {
  id: string;
  event: string;
  target_url: string;
  created_at: Date;
  api_key_id: string | null;
}

const SELECT = `select id, event, target_url, created_at, api_key_id from hook_subscriptions`;

/** The team's active subscriptions, newest first. */
export async function teamHookSubscriptions(db: ReadClient, teamId: string): Promise<HookSubscriptionRow[]> {
  const { rows } = await db.query<HookSubscriptionRow>(
    `${SELECT} where team_id = $1 and active order by created_at desc, id`,
    [teamId],
  );
  return rows;
}

/** One active subscription of the team; undefined for another team's, an unknown or an inactive one. */
export async function teamHookSubscription(
  db: ReadClient,
  teamId: string,
  id: string,
): Promise<HookSubscriptionRow | undefined> {
  const { rows } = await db.query<HookSubscriptionRow>(
    `${SELECT} where team_id = $1 and id = $2 and active`,
    [teamId, id],
  );
  return rows[0];
}
