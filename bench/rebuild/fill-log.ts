import type { Pool } from '../../shared/db/pool.ts';
import { EVENTS_PER_ONBOARDING, onboardingStreams, type Persona } from '../lib/onboarding-events.ts';
import type { Phase } from '../lib/progress.ts';
import { TEAM_ID } from '../lib/sample-event.ts';
import { runConcurrently } from '../lib/stats.ts';

/** Events per statement (and transaction); the format allows at most 65,536 per transaction. */
const CHUNK_ONBOARDINGS = 1200;
const WRITERS = 2;

/**
 * Writes a large log fast, straight into the adapter's tables in the adapter's format
 * (infra/migrations/001_event_store.sql): each chunk of ~10,800 events is one statement
 * and one transaction that
 * - inserts the events with `position = xid * 65536 + index in the transaction` and
 *   `transaction_id = pg_current_xact_id()`, exactly as an append numbers them, so the
 *   adapter's readers (visibility below the oldest transaction in flight) read them as
 *   they read appended events;
 * - inserts each stream's row in event_streams with its last revision.
 * A chunk travels as one JSON text unpacked by json_to_recordset (3× faster than pg's
 * array parameters). Two chunks are written at a time. Events are the generated
 * onboarding log (bench/lib/onboarding-events.ts); recorded_at is the time of the insert.
 */
export async function fillLog(
  pool: Pool,
  total: number,
  phase: Phase,
  personas: Persona[] = [],
): Promise<number> {
  const onboardings = Math.ceil(total / EVENTS_PER_ONBOARDING);
  const chunks = Math.ceil(onboardings / CHUNK_ONBOARDINGS);
  let written = 0;
  await runConcurrently(chunks, WRITERS, async (chunk) => {
    const rows: unknown[] = [];
    const first = chunk * CHUNK_ONBOARDINGS;
    for (let index = first; index < Math.min(onboardings, first + CHUNK_ONBOARDINGS); index++) {
      for (const stream of onboardingStreams(TEAM_ID, index, personas)) {
        stream.events.forEach((event, revision) => {
          rows.push({
            event_id: event.id,
            stream_id: stream.streamId,
            revision,
            type: event.type,
            data: event.data,
            metadata: event.metadata ?? {},
          });
        });
      }
    }
    await pool.query(
      `with e as (
         select * from rows from (
           json_to_recordset($1::json)
             as (event_id uuid, stream_id text, revision bigint, type text, data jsonb, metadata jsonb)
         ) with ordinality as e(event_id, stream_id, revision, type, data, metadata, ord)
       ),
       inserted as (
         insert into events (position, transaction_id, event_id, stream_id, revision, type, data, metadata)
         select pg_current_xact_id()::text::bigint * 65536 + e.ord - 1, pg_current_xact_id(),
                e.event_id, e.stream_id, e.revision, e.type, e.data, e.metadata
         from e
       )
       insert into event_streams (stream_id, revision)
       select stream_id, max(revision) from e group by stream_id`,
      [JSON.stringify(rows)],
    );
    written += rows.length;
    phase.update(written);
  });
  return written;
}
