import type { Clock } from '../shared/clock.ts';
import type { Settings } from '../shared/config/settings.ts';
import type { Pool } from '../shared/db/pool.ts';
import type { DatabasePool } from '../shared/db/read-db.ts';
import type { EventStore } from '../shared/event-store/event-store.ts';
import type { Logger } from '../shared/logger.ts';
import type { PersonalDataVault } from '../shared/privacy/personal-data-vault.ts';
import type { ProjectionRunner } from '../projections/runner.ts';

/** What the running parts share. Built once in services/runtime.ts (and in tests). */
export interface ServiceContext {
  settings: Settings;
  logger: Logger;
  clock: Clock;
  /** pg pool: event store, projections, operational tables, command-side reads. */
  pool: Pool;
  /** slonik pool: query-side reads of read models. */
  readDb: DatabasePool;
  eventStore: EventStore;
  projections: ProjectionRunner;
  /** Keys for personal data in events (crypto-shredding on erasure). */
  vault: PersonalDataVault;
}
