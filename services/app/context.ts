import type { Platform } from '../../shared/app-deps.ts';
import type { Registry } from 'prom-client';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';
import type { RelayHealth } from '../events/index.ts';
import type { DatabaseHealth } from '../../shared/db/database-health.ts';

/**
 * Everything the running parts share, as the composition holds it. Built once in
 * services/app/runtime.ts (and in tests); features receive only the parts they name
 * (shared/app-deps.ts).
 */
export interface ServiceContext extends Platform {
  /** Work due by the service clock: run by the scheduler loop and by work/drain (shared/work-queue/due-pass.ts). */
  duePasses: DuePass<ServiceContext>[];
  /** This instance's metrics, served at /metrics (services/app/operational-metrics.ts). */
  metrics: Registry;
  /** What the Kafka relay reports (read by /readyz); absent where no relay can run. */
  relayHealth?: RelayHealth;
  /** Whether the database answers, since when not (shared/db/database-health.ts); read by /healthz. */
  databaseHealth?: DatabaseHealth;
}
