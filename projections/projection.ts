import type { PoolClient } from '../shared/db/pool.ts';
import type { RecordedEvent } from '../shared/event-store/event-store.ts';

/**
 * A projection turns events into rows of its own read-model tables. It must be a pure
 * function of the log: no wall clock, no random values, only event data (and the
 * event's recordedAt/position), so a rebuild gives the same rows as the live run.
 *
 * `table(name)` gives the physical, quoted name to write to: the live table, or its
 * shadow copy while `npm run rebuild` replays the log.
 */
export interface Projection {
  name: string;
  /** Tables this projection owns; rebuild recreates and swaps exactly these. */
  tables: string[];
  apply(client: PoolClient, events: RecordedEvent[], table: (name: string) => string): Promise<void>;
}

export const liveTable = (name: string) => `"${name}"`;
