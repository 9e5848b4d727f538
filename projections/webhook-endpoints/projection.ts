import { readModelProjection } from '../../shared/projections/projection.ts';
import { foldWebhookEndpoint, WEBHOOK_ENDPOINT_EVENT_TYPES, type WebhookEndpointChange } from './fold.ts';

/**
 * webhook_endpoints: every signed webhook endpoint (deliveries read the enabled ones of a
 * team and type, made before the event by position). ./fold.ts turns the events into row
 * changes; `persist` writes them in log order.
 */

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
