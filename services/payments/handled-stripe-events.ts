import type { PoolClient } from '../../shared/db/pool.ts';

/*
 * stripe_events_handled (infra/migrations/137_stripe_webhooks.sql): each Stripe event id is
 * handled once. The row is claimed first in the transaction of the command the event
 * causes: a concurrent delivery of the same id waits on it and then finds it, a later one
 * finds it at once; either changes nothing.
 */

/** True when this transaction claimed the event id; false when it was handled before. */
export async function claimStripeEvent(
  tx: PoolClient,
  event: { id: string; type: string },
  now: Date,
): Promise<boolean> {
  const { rowCount } = await tx.query({
    name: 'stripe_event_claim',
    text: `insert into stripe_events_handled (event_id, type, outcome, handled_at)
           values ($1, $2, 'handling', $3)
           on conflict (event_id) do nothing`,
    values: [event.id, event.type, now],
  });
  return rowCount === 1;
}

/** What the event did, or why it did nothing. */
export async function recordStripeEventOutcome(tx: PoolClient, eventId: string, outcome: string) {
  await tx.query({
    name: 'stripe_event_outcome',
    text: 'update stripe_events_handled set outcome = $2 where event_id = $1',
    values: [eventId, outcome],
  });
}
