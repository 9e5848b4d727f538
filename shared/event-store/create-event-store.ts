import type { Settings } from '../config/settings.ts';
import type { Pool } from '../db/pool.ts';
import type { EventStore } from './event-store.ts';
import { EventStoreDBEventStore } from './eventstoredb-event-store.ts';
import { PostgresEventStore } from './postgres-event-store.ts';

/** EVENTSTORE_URL selects EventStoreDB; without it events live in PostgreSQL. */
export function createEventStore(settings: Settings, pool: Pool, databaseUrl: string): EventStore {
  if (settings.EVENTSTORE_URL) {
    return EventStoreDBEventStore.connect(settings.EVENTSTORE_URL);
  }
  return new PostgresEventStore(pool, databaseUrl);
}
