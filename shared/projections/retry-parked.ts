import { inTransaction, type Pool } from '../db/pool.ts';
import type { EventStore, RecordedEvent } from '../event-store/event-store.ts';
import { tryApply } from './apply-events.ts';
import { summarizeError, type ErrorSummary } from '../logging/error-without-row-data.ts';
import { listParked, recordFailedRetry, unpark, type ParkedEventRow } from './parked-events.ts';
import { liveTable, type Projection } from './projection.ts';

/**
 * Applies parked events again, after the projection or the database was fixed: each event
 * is read from the log again and applied to its projection's live tables, oldest first,
 * one transaction per event that holds the projection's checkpoint row (the live runner
 * and a rebuild swap wait). Applied: the parked row goes. Failing again: the row stays
 * with the newest error and one more attempt.
 *
 * The event gets its effect on today's rows, after the events that followed it. Where a
 * later event of the same stream depended on it (and so did nothing), `npm run rebuild`
 * replays the log in order and is the exact fix.
 */

/** At most this many parked events per call; the answer says how many are left. */
export const RETRY_LIMIT = 1000;

export interface RetryFilter {
  projection?: string;
  eventIds?: readonly string[];
}

export type RetryOutcome =
  | { parked: ParkedEventRow; outcome: 'applied' }
  | { parked: ParkedEventRow; outcome: 'still_failing'; error: ErrorSummary }
  /** Retried by someone else meanwhile, or no longer in the log. */
  | { parked: ParkedEventRow; outcome: 'gone' };

export async function retryParked(
  pool: Pool,
  store: EventStore,
  projections: readonly Projection[],
  filter: RetryFilter = {},
): Promise<RetryOutcome[]> {
  const chosen = projections.filter(
    (projection) => filter.projection === undefined || projection.name === filter.projection,
  );
  const rows = await listParked(pool, {
    projections: chosen.map((projection) => projection.name),
    eventIds: filter.eventIds,
    limit: RETRY_LIMIT,
  });
  const outcomes: RetryOutcome[] = [];
  for (const row of rows) {
    const projection = chosen.find((candidate) => candidate.name === row.projection)!;
    const event = await readEvent(store, row);
    outcomes.push(event ? await retryOne(pool, projection, row, event) : { parked: row, outcome: 'gone' });
  }
  return outcomes;
}

function retryOne(
  pool: Pool,
  projection: Projection,
  row: ParkedEventRow,
  event: RecordedEvent,
): Promise<RetryOutcome> {
  return inTransaction(pool, async (client): Promise<RetryOutcome> => {
    await client.query('select 1 from checkpoints where name = $1 for update', [row.projection]);
    const still = await client.query(
      'select 1 from parked_events where projection = $1 and event_id = $2 for update',
      [row.projection, row.eventId],
    );
    if (still.rowCount === 0) return { parked: row, outcome: 'gone' };
    const error = await tryApply(client, projection, [event], liveTable);
    if (error === undefined) {
      await unpark(client, row.projection, row.eventId);
      return { parked: row, outcome: 'applied' };
    }
    const summary = summarizeError(error, projection.tables);
    await recordFailedRetry(client, row.projection, row.eventId, summary);
    return { parked: row, outcome: 'still_failing', error: summary };
  });
}

/** The parked event as the log holds it: the first event after `readAfter`, or one soon after. */
async function readEvent(store: EventStore, row: ParkedEventRow): Promise<RecordedEvent | undefined> {
  const [first] = await store.readAll({ after: row.readAfter, limit: 1 });
  if (first?.id === row.eventId) return first;
  const window = await store.readAll({ after: row.readAfter, limit: 100 });
  return window.find((event) => event.id === row.eventId);
}
