import type { Settings } from '../config/settings.ts';
import type { Pool } from '../db/pool.ts';
import type { EventStore } from './event-store.ts';
import { EventStoreDBEventStore } from './eventstoredb-event-store.ts';
import { PostgresEventStore } from './postgres-event-store.ts';
import type { Projection } from '../projections/projection.ts';

/**
 * EVENTSTORE_URL selects EventStoreDB; without it events live in PostgreSQL, which writes
 * `inline` read models in each command's transaction (../projections/inline-projections.ts).
 */
export function createEventStore(
  settings: Settings,
  pool: Pool,
  databaseUrl: string,
  inline: readonly Projection[] = [],
): EventStore {
  if (settings.EVENTSTORE_URL) {
    return EventStoreDBEventStore.connect(settings.EVENTSTORE_URL);
  }
  return new PostgresEventStore(pool, databaseUrl, inline);
}
