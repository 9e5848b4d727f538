import type { ReadClient } from '../read-client.ts';

/**
 * The reads other code may run on the webhook_endpoints read model (./projection.ts
 * writes it), through the read client (../read-client.ts).
 */

export interface WebhookEndpointRow {
  id: string;
  url: string;
  event_types: string[];
  enabled: boolean;
  created_at: Date;
}

/** The team's endpoints that are not deleted, oldest first. */
export async function teamWebhookEndpoints(db: ReadClient, teamId: string): Promise<WebhookEndpointRow[]> {
  const { rows } = await db.query<WebhookEndpointRow>(
    `select id, url, event_types, enabled, created_at from webhook_endpoints
     where team_id = $1 and deleted_at is null order by created_at, position`,
    [teamId],
  );
  return rows;
}

/** One of the team's endpoints, not deleted; undefined for another team's, an unknown or a deleted one. */
export async function teamWebhookEndpoint(
  db: ReadClient,
  teamId: string,
  endpointId: string,
): Promise<WebhookEndpointRow | undefined> {
  const { rows } = await db.query<WebhookEndpointRow>(
    `select id, url, event_types, enabled, created_at from webhook_endpoints
     where id = $1 and team_id = $2 and deleted_at is null`,
    [endpointId, teamId],
  );
  return rows[0];
}

/**
 * The endpoints an event of the team goes to: enabled, listing its type, made before it
 * (by log position) and not deleted; none while the team's plan is Free.
 */
export async function endpointsForEvent(
  db: ReadClient,
  teamId: string,
  type: string,
  position: string,
): Promise<{ id: string; url: string }[]> {
  const { rows } = await db.query<{ id: string; url: string }>(
    `select e.id, e.url from webhook_endpoints e join teams t on t.id = e.team_id
     where e.team_id = $1 and $2 = any(e.event_types) and e.enabled and e.deleted_at is null
       and e.position < $3 and t.plan <> 'free'
     order by e.position`,
    [teamId, type, position],
  );
  return rows;
}
