import { WEBHOOK_EVENT_TYPES } from '../../../services/hooks/contract/webhook-event-types.ts';
import { PUBLIC_EVENT_TYPES } from '../../../services/events/contract/public-event-types.ts';
import { arrayOf, boolean, nullable, object, oneOfValues, string, timestamp, uuid } from '../json-schema.ts';
import type { EventCatalogPart } from './types.ts';

/** Hook subscriptions and signed deliveries. */
export const HOOK_EVENTS: EventCatalogPart = {
  // Hook subscriptions (stream hook_subscription-<subscription_id>)
  'hook_subscription.created': {
    summary: 'A hook subscription was created for one public event type.',
    stream: 'hook_subscription-<subscription_id>',
    data: object({
      subscription_id: uuid,
      team_id: uuid,
      event: oneOfValues(PUBLIC_EVENT_TYPES),
      target_url: string({ format: 'uri' }),
      api_key_id: nullable(uuid),
      created_at: timestamp,
    }),
  },
  'hook_subscription.deleted': {
    summary: 'A hook subscription was deleted.',
    stream: 'hook_subscription-<subscription_id>',
    data: object({ subscription_id: uuid, team_id: uuid, deleted_at: timestamp }),
  },

  // Signed deliveries: secrets live in operational tables, never in these events.
  'hook_signing_secret.created': {
    summary: "The team's hook signing secret was made (on first need).",
    stream: 'hook_signing-<team_id>',
    data: object({ team_id: uuid, created_at: timestamp }),
  },
  'hook_signing_secret.rotated': {
    summary:
      "The team's hook signing secret was replaced; the previous one signs too until previous_valid_until.",
    stream: 'hook_signing-<team_id>',
    data: object({ team_id: uuid, rotated_at: timestamp, previous_valid_until: timestamp }),
  },
  'webhook_endpoint.created': {
    summary: 'A signed webhook endpoint was created with its own secret (not in the event).',
    stream: 'webhook_endpoint-<endpoint_id>',
    data: object({
      endpoint_id: uuid,
      team_id: uuid,
      url: string({ format: 'uri' }),
      event_types: arrayOf(oneOfValues(WEBHOOK_EVENT_TYPES)),
      enabled: boolean,
      created_at: timestamp,
    }),
  },
  'webhook_endpoint.deleted': {
    summary: 'A signed webhook endpoint was deleted; its queued deliveries fail.',
    stream: 'webhook_endpoint-<endpoint_id>',
    data: object({ endpoint_id: uuid, team_id: uuid, deleted_at: timestamp }),
  },
  'webhook_endpoint.secret_rotated': {
    summary: "The endpoint's secret was replaced; the previous one signs too until previous_valid_until.",
    stream: 'webhook_endpoint-<endpoint_id>',
    data: object({
      endpoint_id: uuid,
      team_id: uuid,
      rotated_at: timestamp,
      previous_valid_until: timestamp,
    }),
  },
  'hook_delivery.test_requested': {
    summary: 'A test delivery (event webhook.test) was queued to a hook subscription or webhook endpoint.',
    stream: 'hook_delivery_log-<target_id>',
    data: object({
      target_kind: oneOfValues(['hook', 'endpoint']),
      target_id: uuid,
      team_id: uuid,
      delivery_id: uuid,
      requested_at: timestamp,
    }),
  },
  'hook_delivery.replayed': {
    summary: 'Deliveries were queued again (same webhook-id and body).',
    stream: 'hook_delivery_log-<target_id>',
    data: object({
      target_kind: oneOfValues(['hook', 'endpoint']),
      target_id: uuid,
      team_id: uuid,
      delivery_ids: arrayOf(uuid),
      replayed_at: timestamp,
    }),
  },
};
