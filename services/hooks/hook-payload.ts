import { toAuditRecord } from '../events/index.ts';
import type { Onboarding } from '../onboardings/index.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import { derivedUuid } from '../../shared/ids/derived-id.ts';
import { isoMicros } from './event-moment.ts';

/**
 * A hook delivery (Standard Webhooks, https://www.standardwebhooks.com):
 *
 *   POST <target_url>
 *   content-type: application/json
 *   webhook-id: <uuid>          one per (event, subscription); the same on every retry and replay
 *   webhook-timestamp: <unix>   seconds, the service clock at this attempt
 *   webhook-signature: v1,<sig> the team's hook signing secret (./delivery-signature.ts);
 *                               X-Service-Signature instead for a signed webhook endpoint
 *
 *   {"id": <event id>, "event": <type>, "timestamp": <event time>, "data": {...}}
 *
 * - id: the event's id, the same id GET /api/v1/events lists (so a receiver can dedupe
 *   between deliveries and the events list, the spec's fallback for missed deliveries);
 * - timestamp: when the event occurred, UTC with microseconds and offset;
 * - data: onboarding_id, client_id, template_id, status and progress_pct of the onboarding
 *   at the moment of the event, then the event's own details exactly as the events list
 *   gives them (ids and facts, no personal data: names and emails stay behind client_id).
 *
 * Signed webhook endpoints receive the same body; `event` is one of the nine webhook event
 * types (./contract/webhook-event-types.ts). Receivers verify the signature and dedupe on webhook-id.
 */
export interface HookBody {
  id: string;
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export function hookBody(
  event: RecordedEvent,
  onboarding: Onboarding | undefined,
  name: string = event.type,
): HookBody {
  const audit = toAuditRecord(event);
  const details = audit?.data ?? {};
  const moment = onboarding
    ? {
        onboarding_id: onboarding.id,
        client_id: onboarding.client_id,
        template_id: onboarding.template_id,
        status: onboarding.status,
        progress_pct: onboarding.progress_pct,
      }
    : {};
  return {
    id: event.id,
    event: name,
    timestamp: isoMicros(audit?.occurredAt ?? event.recordedAt),
    data: { ...moment, ...details },
  };
}

/** The webhook-id of an event's delivery to one subscription: a UUID derived from both ids (stable). */
export const webhookId = (eventId: string, subscriptionId: string) =>
  derivedUuid(`hook-delivery:${eventId}:${subscriptionId}`);
