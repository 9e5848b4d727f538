/** The workspace API's hooks answers (the generated OpenAPI types) and the pure helpers of the Webhooks screen. */
import type { components } from '../../../../shared/api/openapi.d.ts';
import type { ApiAnswer } from '../../api.ts';

export type { HookSubscription, WebhookEndpoint } from './api.ts';
/** A delivery with its attempts (GET .../deliveries of a subscription or an endpoint). */
export type Delivery = components['schemas']['Delivery'];
export type DeliveryAttempt = Delivery['attempts'][number];
/** The team's hook signing secret (GET /workspace/v1/hook-signing-secret). */
export type SigningSecret = ApiAnswer<'/workspace/v1/hook-signing-secret', 'get'>;

/** The public event types a hook subscription may follow (one per subscription). */
export { PUBLIC_EVENT_TYPES as HOOK_EVENTS } from '../../../../../events/contract/public-event-types.ts';

/** The nine event types of signed webhook endpoints: the public ones and onboarding.cancelled. */
export { WEBHOOK_EVENT_TYPES as ENDPOINT_EVENTS } from '../../../../../hooks/contract/webhook-event-types.ts';

/** Where a delivery log lives: a hook subscription or a signed webhook endpoint. */
export interface DeliveryTarget {
  kind: 'hook-subscriptions' | 'webhook-endpoints';
  id: string;
  /** What the person reads: the target URL. */
  label: string;
}

/**
 * Pure: a datetime-local value (YYYY-MM-DDTHH:MM, the viewer's local time) as an ISO
 * instant, or null when it is not a date and time.
 */
export function sinceIso(local: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local)) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Pure: the default of "Replay failed since": 24 hours before `now`, as a datetime-local value. */
export function dayBefore(now: Date = new Date()): string {
  const then = new Date(now.getTime() - 24 * 3600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${then.getFullYear()}-${pad(then.getMonth() + 1)}-${pad(then.getDate())}T${pad(then.getHours())}:${pad(then.getMinutes())}`;
}

/** Pure: what an attempt's outcome was: the status code, or the error when no answer came. */
export function attemptOutcome(attempt: DeliveryAttempt): string {
  if (attempt.status_code !== null) return `HTTP ${attempt.status_code}`;
  return attempt.error ?? '';
}
