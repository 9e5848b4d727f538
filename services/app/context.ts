import type { Clock } from '../../shared/clock.ts';
import type { Settings } from '../../shared/config/settings.ts';
import type { Pool } from '../../shared/db/pool.ts';
import type { DatabasePool } from '../../shared/db/read-db.ts';
import type { EventStore } from '../../shared/event-store/event-store.ts';
import type { Logger } from '../../shared/logging/logger.ts';
import type { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import type { EventConsumers } from '../../shared/subscriptions/consumers.ts';
import type { ProjectionRunner } from '../../shared/projections/runner.ts';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';

/** What the running parts share. Built once in services/app/runtime.ts (and in tests). */
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
  /** The running event consumers (POST /admin/v1/work/drain waits for them). */
  consumers: EventConsumers;
  /** Work due by the service clock: run by the scheduler loop and by work/drain (shared/work-queue/due-pass.ts). */
  duePasses: DuePass[];
}
