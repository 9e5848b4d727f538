import type { RecordedEvent } from '../shared/event-store/event-store.ts';
import type { WebhookEndpointEvent } from '../services/hooks/webhook-endpoint-decider.ts';
import { readModelProjection } from '../shared/projections/projection.ts';

/**
 * webhook_endpoints: every signed webhook endpoint (deliveries read the enabled ones of a
 * team and type, made before the event by position). `foldWebhookEndpoint` is the pure
 * half: each event becomes the row change it makes, written in log order by `persist`.
 */

export const WEBHOOK_ENDPOINT_EVENT_TYPES = ['webhook_endpoint.created', 'webhook_endpoint.deleted'] as const;

export type WebhookEndpointChange =
  | {
      kind: 'created';
      row: {
        id: string;
        team_id: string;
        url: string;
        event_types: string[];
        enabled: boolean;
        created_at: string;
        position: string;
      };
    }
  | { kind: 'deleted'; id: string; deleted_at: string };

export function foldWebhookEndpoint(
  changes: WebhookEndpointChange[],
  recorded: RecordedEvent,
): WebhookEndpointChange[] {
  const event = { type: recorded.type, data: recorded.data } as WebhookEndpointEvent;
  if (event.type === 'webhook_endpoint.created') {
    const { data } = event;
    changes.push({
      kind: 'created',
      row: {
        id: data.endpoint_id,
        team_id: data.team_id,
        url: data.url,
        event_types: data.event_types,
        enabled: data.enabled,
        created_at: data.created_at,
        position: String(recorded.position),
      },
    });
  } else if (event.type === 'webhook_endpoint.deleted') {
    changes.push({ kind: 'deleted', id: event.data.endpoint_id, deleted_at: event.data.deleted_at });
  }
  return changes;
}

export const webhookEndpointsProjection = readModelProjection<WebhookEndpointChange[]>({
  name: 'webhook_endpoints',
  tables: ['webhook_endpoints'],
  canHandle: WEBHOOK_ENDPOINT_EVENT_TYPES,
  load: async () => [],
  fold: foldWebhookEndpoint,
  async persist(client, changes, table) {
    for (const change of changes) {
      if (change.kind === 'created') {
        const { row } = change;
        await client.query(
          `insert into ${table('webhook_endpoints')}
             (id, team_id, url, event_types, enabled, created_at, position)
           values ($1, $2, $3, $4, $5, $6, $7)
           on conflict (id) do nothing`,
          [row.id, row.team_id, row.url, row.event_types, row.enabled, row.created_at, row.position],
        );
      } else {
        await client.query(`update ${table('webhook_endpoints')} set deleted_at = $2 where id = $1`, [
          change.id,
          change.deleted_at,
        ]);
      }
    }
  },
});
