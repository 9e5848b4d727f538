import type { Pool, PoolClient } from '../db/pool.ts';
import type { RecordedEvent } from '../event-store/event-store.ts';
import type { ErrorSummary } from '../logging/error-without-row-data.ts';

/**
 * The parked_events table (infra/migrations/080_parked_events.sql): events a projection
 * cannot apply, one row per checkpoint and event, holding the event's id, position and
 * type and the error's code and masked message, never event data or row values.
 */

export interface ParkedEvent {
  /** The checkpoint the event is parked for: a projection's name (or its rebuild's). */
  projection: string;
  eventId: string;
  position: bigint;
  /** The log position just before the event: `readAll({ after })` returns it first. */
  readAfter: bigint;
  eventType: string;
  error: ErrorSummary;
}

export interface ParkedEventRow extends ParkedEvent {
  attempts: number;
  parkedAt: Date;
  lastAttemptAt: Date;
}

interface Row {
  projection: string;
  event_id: string;
  position: string;
  read_after: string;
  event_type: string;
  error_code: string | null;
  error_message: string;
  attempts: number;
  parked_at: Date;
  last_attempt_at: Date;
}

const COLUMNS =
  'projection, event_id, position, read_after, event_type, error_code, error_message, attempts, parked_at, last_attempt_at';

const fromRow = (row: Row): ParkedEventRow => ({
  projection: row.projection,
  eventId: row.event_id,
  position: BigInt(row.position),
  readAfter: BigInt(row.read_after),
  eventType: row.event_type,
  error: { code: row.error_code ?? undefined, message: row.error_message },
  attempts: row.attempts,
  parkedAt: row.parked_at,
  lastAttemptAt: row.last_attempt_at,
});

export function parkedEvent(
  projection: string,
  event: RecordedEvent,
  readAfter: bigint,
  error: ErrorSummary,
): ParkedEvent {
  return { projection, eventId: event.id, position: event.position, readAfter, eventType: event.type, error };
}

/** Parks the event (in the caller's transaction); parking it again counts one more attempt. */
export async function park(client: PoolClient, parked: ParkedEvent): Promise<void> {
  await client.query(
    `insert into parked_events (projection, event_id, position, read_after, event_type, error_code, error_message)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (projection, event_id) do update
       set error_code = excluded.error_code, error_message = excluded.error_message,
           attempts = parked_events.attempts + 1, last_attempt_at = now()`,
    [
      parked.projection,
      parked.eventId,
      String(parked.position),
      String(parked.readAfter),
      parked.eventType,
      parked.error.code ?? null,
      parked.error.message,
    ],
  );
}

/** A retry failed again: the newest error and one more attempt. */
export async function recordFailedRetry(
  client: PoolClient,
  projection: string,
  eventId: string,
  error: ErrorSummary,
): Promise<void> {
  await client.query(
    `update parked_events
     set error_code = $3, error_message = $4, attempts = attempts + 1, last_attempt_at = now()
     where projection = $1 and event_id = $2`,
    [projection, eventId, error.code ?? null, error.message],
  );
}

export async function unpark(client: PoolClient, projection: string, eventId: string): Promise<void> {
  await client.query('delete from parked_events where projection = $1 and event_id = $2', [
    projection,
    eventId,
  ]);
}

export interface ParkedFilter {
  projections: readonly string[];
  eventIds?: readonly string[];
  limit?: number;
}

/** Parked events of the given checkpoints, oldest position first. */
export async function listParked(db: Pool | PoolClient, filter: ParkedFilter): Promise<ParkedEventRow[]> {
  const result = await db.query<Row>(
    `select ${COLUMNS} from parked_events
     where projection = any($1) and ($2::uuid[] is null or event_id = any($2::uuid[]))
     order by position, projection
     limit $3`,
    [filter.projections, filter.eventIds ?? null, filter.limit ?? null],
  );
  return result.rows.map(fromRow);
}

/** How many events are parked, per checkpoint (only those with at least one). */
export async function countParked(
  db: Pool | PoolClient,
  projections: readonly string[],
): Promise<Record<string, number>> {
  const result = await db.query<{ projection: string; count: number }>(
    `select projection, count(*)::int as count from parked_events
     where projection = any($1) group by projection order by projection`,
    [projections],
  );
  return Object.fromEntries(result.rows.map((row) => [row.projection, row.count]));
}

export const totalOf = (counts: Record<string, number>) =>
  Object.values(counts).reduce((sum, count) => sum + count, 0);
