import type { Settings } from './settings.ts';

/**
 * What one process runs, by SERVICE_ROLE. `api`: HTTP only; commands read their writes
 * through the checkpoints in the shared database, which a worker moves. `worker`: the
 * projections, event consumers, Kafka relay and scheduler (timers, hook and webhook
 * deliveries, automation, mail), and over HTTP only the health, metrics and operator
 * routes. `all`: both, one process (the default).
 */
export type ServiceRole = Settings['SERVICE_ROLE'];

/** True when the process serves the public, portal and workspace APIs and the web pages. */
export const servesApi = (settings: Pick<Settings, 'SERVICE_ROLE'>): boolean =>
  settings.SERVICE_ROLE !== 'worker';

/** True when the process runs the background work (projections, consumers, relay, scheduler). */
export const runsWorker = (settings: Pick<Settings, 'SERVICE_ROLE'>): boolean =>
  settings.SERVICE_ROLE !== 'api';
