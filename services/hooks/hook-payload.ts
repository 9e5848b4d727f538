import { toAuditRecord } from '../events/audit-event-types.ts';
import type { Onboarding } from '../onboardings/onboarding-decider.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import { derivedUuid } from './derived-id.ts';
import { isoMicros } from './event-moment.ts';

/**
 * A hook delivery (Standard Webhooks, https://www.standardwebhooks.com):
 *
 *   POST <target_url>
 *   content-type: application/json
 *   webhook-id: <uuid>          one per (event, subscription); the same on every retry
 *   webhook-timestamp: <unix>   seconds, the service clock at this attempt
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
 * No signature: the spec gives hook subscriptions no secret (the signed webhook feature
 * with X-Service-Signature is a different one). Receivers should treat the URL as the
 * secret and dedupe on webhook-id.
 */
export interface HookBody {
  id: string;
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export function hookBody(event: RecordedEvent, onboarding: Onboarding | undefined): HookBody {
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
    event: event.type,
    timestamp: isoMicros(audit?.occurredAt ?? event.recordedAt),
    data: { ...moment, ...details },
  };
}

/** The webhook-id of an event's delivery to one subscription: a UUID derived from both ids (stable). */
export const webhookId = (eventId: string, subscriptionId: string) =>
  derivedUuid(`hook-delivery:${eventId}:${subscriptionId}`);
