import type { NotificationKind } from './contract/notifications.ts';

/** The event types the notifications consumer reads. */
export const NOTIFIED_EVENT_TYPES = [
  'onboarding.completed',
  'response.submitted',
  'signature.signed',
  'payment.succeeded',
  'onboarding.overdue',
] as const;

/** What the kind of a response.submitted depends on: the reviews open before it. */
export interface ReviewsBefore {
  reviews: Readonly<Record<string, { status: 'approved' | 'rejected' | 'changes_requested' }>>;
}

/**
 * The kind of notification an event makes, or null for none. Pure. A step submitted is news
 * only when it brings back an answer the team sent back (rejected or changes requested,
 * open in the onboarding's state just before the event); a signature only when the client
 * signed (a member's own signature tells the team nothing new).
 */
export function notificationKind(
  event: { type: string; data: unknown },
  before: ReviewsBefore | undefined,
): NotificationKind | null {
  const data = (event.data ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case 'onboarding.completed':
      return 'completed';
    case 'payment.succeeded':
      return 'paid';
    case 'onboarding.overdue':
      return 'overdue';
    case 'signature.signed':
      return data.signer_role === 'client' ? 'signed' : null;
    case 'response.submitted': {
      const responses = Array.isArray(data.responses) ? (data.responses as { field_id?: unknown }[]) : [];
      const reopened = responses.some((response) => {
        const review = typeof response.field_id === 'string' ? before?.reviews[response.field_id] : undefined;
        return review !== undefined && review.status !== 'approved';
      });
      return reopened ? 'resubmitted' : null;
    }
    default:
      return null;
  }
}
