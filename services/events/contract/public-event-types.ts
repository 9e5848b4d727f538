import { isOneOf } from '../../../shared/validation/one-of.ts';

/**
 * The eight public event types (spec, Events): the names in the events feed, the
 * `type` filter of GET /api/v1/events, and the events a hook subscription can name.
 * In the spec's order.
 */
export const PUBLIC_EVENT_TYPES = [
  'onboarding.completed',
  'onboarding.sent',
  'onboarding.started',
  'onboarding.overdue',
  'response.submitted',
  'signature.signed',
  'payment.succeeded',
  'file.uploaded',
] as const;

export type PublicEventType = (typeof PUBLIC_EVENT_TYPES)[number];

export const isPublicEventType = isOneOf(PUBLIC_EVENT_TYPES);
