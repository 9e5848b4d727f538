import type { ReadClient } from '../../projections/read-client.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import { RELAY_CHECKPOINT } from '../../shared/subscriptions/kafka.ts';

/**
 * Parks the event the Kafka relay is stalled on under the relay's checkpoint name, with
 * the broker's error, so the relay's next retry passes over it; skipping it again counts
 * one more attempt and keeps the first error.
 */
export async function parkSkippedRelayEvent(
  db: ReadClient,
  event: Pick<RecordedEvent, 'id' | 'position' | 'type'>,
  lastError: string | undefined,
): Promise<void> {
  await db.query(
    `insert into parked_events
       (projection, event_id, position, read_after, event_type, error_code, error_message)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (projection, event_id) do update
     set attempts = parked_events.attempts + 1, last_attempt_at = now()`,
    [
      RELAY_CHECKPOINT,
      event.id,
      String(event.position),
      String(event.position - 1n),
      event.type,
      'relay_skipped',
      lastError ?? 'skipped by an operator',
    ],
  );
}
