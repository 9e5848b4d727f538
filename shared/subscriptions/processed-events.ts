import type { Clock } from '../clock.ts';
import type { PoolClient } from '../db/pool.ts';
import type { RecordedEvent } from '../event-store/event-store.ts';
import type { EventConsumer } from './event-consumer.ts';

/**
 * Inside the caller's transaction: records that `consumer` handles `event` and calls its
 * handler, or does nothing when the event id was handled before (a duplicate delivery).
 * The dedupe row and the consumer's writes commit or roll back together. processed_at is
 * by the service clock when one is given (retention counts from it), else the database's.
 */
export async function handleOnce(
  tx: PoolClient,
  consumer: EventConsumer,
  event: RecordedEvent,
  clock?: Clock,
): Promise<boolean> {
  const inserted = await tx.query(
    `insert into processed_events (consumer, event_id, position, processed_at)
     values ($1, $2, $3, coalesce($4::timestamptz, now()))
     on conflict (consumer, event_id) do nothing`,
    [consumer.name, event.id, String(event.position), clock?.now() ?? null],
  );
  if (inserted.rowCount === 0) return false;
  await consumer.handle(event, tx);
  return true;
}
