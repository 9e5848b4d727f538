import { PUBLIC_EVENT_TYPES } from '../../events/contract/public-event-types.ts';
import { isOneOf } from '../../../shared/validation/one-of.ts';

/**
 * The nine event types of signed webhook endpoints: the eight public ones, plus
 * `onboarding.cancelled` (the log's `onboarding_cancelled`: the team cancelled an
 * onboarding and its link stopped working). The ninth is the one state change of an
 * onboarding the public events leave out, and the one an integration that mirrors
 * onboardings needs to close its copy.
 *
 * `webhook.test` is the type of a test delivery (POST .../test); it is sent only on request
 * and cannot be subscribed to.
 */
export const WEBHOOK_EVENT_TYPES = [...PUBLIC_EVENT_TYPES, 'onboarding.cancelled'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const isWebhookEventType = isOneOf(WEBHOOK_EVENT_TYPES);

export const TEST_EVENT_TYPE = 'webhook.test';

/** The log's event type behind each webhook event type that is not named alike. */
const LOG_TYPE_OF: Partial<Record<WebhookEventType, string>> = {
  'onboarding.cancelled': 'onboarding_cancelled',
};

/** The log's event types the deliveries consumer reads. */
export const DELIVERED_LOG_TYPES: string[] = WEBHOOK_EVENT_TYPES.map((type) => LOG_TYPE_OF[type] ?? type);

/** The webhook event type of a log event type (undefined: not delivered). */
export function webhookEventTypeOf(logType: string): WebhookEventType | undefined {
  const index = DELIVERED_LOG_TYPES.indexOf(logType);
  return index < 0 ? undefined : WEBHOOK_EVENT_TYPES[index];
}
