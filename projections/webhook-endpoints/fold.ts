import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { WebhookEndpointEvent } from '../../services/hooks/webhook-endpoint-decider.ts';

/**
 * The pure half of the webhook_endpoints read model (./projection.ts writes it): each
 * event becomes the row change it makes, in log order.
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
