import type { FastifyInstance } from 'fastify';
import { countParked, totalOf } from '../../shared/projections/parked-events.ts';
import type { Platform } from '../../shared/app-deps.ts';
import {
  readCheckpointLags,
  stuckCheckpoints,
  type CheckpointLag,
} from '../../shared/metrics/checkpoint-lag.ts';
import type { RelayHealth } from '../events/index.ts';
import { runsWorker } from '../../shared/config/service-role.ts';
import type { DatabaseHealth } from '../../shared/db/database-health.ts';
import { databaseAnswers } from '../../shared/db/pool.ts';

export type HealthRouteDeps = Pick<Platform, 'pool' | 'eventStore' | 'projections' | 'settings'> & {
  relayHealth?: RelayHealth;
  databaseHealth?: DatabaseHealth;
};

/** How long the readiness read of checkpoint lags may take; when it cannot answer, lag does not count. */
export const READY_LAG_QUERY_TIMEOUT_MS = 1000;

/**
 * GET /healthz: the process answers, and its database has not been out of reach for
 * DATABASE_LOST_UNHEALTHY_SECONDS or longer (then 503 `unhealthy`, so that an orchestrator
 * restarts the process: shared/db/database-health.ts; the embedded database is restarted by
 * the service itself first, shared/db/embedded-supervisor.ts). GET /readyz: the database and
 * event store answer too; 503 from the moment the database is known to be gone.
 *
 * Parked events (events a projection cannot apply, GET /admin/v1/parked-events) do not make
 * the service unready: every other event and projection goes on, and taking the instance
 * out of a load balancer would not fix them. While there are some, /readyz adds
 * `parked_events` (how many) and `parked_by_projection`, and the runner logs a warning for
 * each one it parks.
 *
 * A projection of this instance, or the Kafka relay when KAFKA_BROKERS is set, whose oldest
 * unhandled event is older than READY_MAX_LAG_SECONDS is stuck: /readyz answers 503 with
 * `stuck` (each checkpoint, its lag in events and seconds) and `reason` (one sentence per
 * stuck checkpoint). Measured on the PostgreSQL event log only. Lag counts only where the
 * background work runs (SERVICE_ROLE all or worker): an API-only instance moves no
 * checkpoint, and taking every API instance out of the proxy because the worker lags would
 * stop the reads too; its commands answer 503 read_models_lagging meanwhile.
 *
 * The Kafka relay stalled (the same publish failed several times in a row:
 * services/events/relay-health.ts) makes the service not ready: events stop reaching the
 * topic, and an operator has to act. `relay` then says since when, the broker's error and
 * the event refused.
 */
export async function healthRoutes(app: FastifyInstance, { context }: { context: HealthRouteDeps }) {
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    const health = context.databaseHealth;
    const downSeconds = Math.floor((health?.downForMs() ?? 0) / 1000);
    if (health?.down && downSeconds >= context.settings.DATABASE_LOST_UNHEALTHY_SECONDS) {
      return reply.status(503).send({
        status: 'unhealthy',
        database: 'unreachable',
        down_seconds: downSeconds,
        reason: health.reason,
      });
    }
    return { status: 'ok' };
  });

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const [database, eventStore, parked, lags] = await Promise.all([
      databaseAnswers(context.pool).then((answers) => (answers ? 'ok' : 'unreachable')),
      context.eventStore.ping().then(
        () => 'ok',
        () => 'unreachable',
      ),
      countParked(context.pool, context.projections.projectionNames).catch(() => ({})),
      context.eventStore.kind === 'postgres' && runsWorker(context.settings)
        ? readCheckpointLags(
            context.pool,
            context.projections.projectionNames,
            READY_LAG_QUERY_TIMEOUT_MS,
          ).catch(() => [] as CheckpointLag[])
        : ([] as CheckpointLag[]),
    ]);
    const relayWatched = context.settings.KAFKA_BROKERS.length > 0;
    const stuck = stuckCheckpoints(
      lags,
      context.settings.READY_MAX_LAG_SECONDS,
      (lag) => lag.kind === 'projection' || (lag.kind === 'relay' && relayWatched),
    );
    const relay = context.relayHealth?.failingSince ? context.relayHealth.report() : undefined;
    const ready =
      database === 'ok' && eventStore === 'ok' && stuck.length === 0 && relay?.status !== 'stalled';
    const parkedEvents = totalOf(parked);
    return reply.status(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not_ready',
      database,
      event_store: eventStore,
      ...(relay ? { relay } : {}),
      ...(parkedEvents > 0 ? { parked_events: parkedEvents, parked_by_projection: parked } : {}),
      ...(stuck.length > 0
        ? {
            stuck: stuck.map(({ lag }) => ({
              checkpoint: lag.checkpoint,
              kind: lag.kind,
              behind_events: lag.behindEvents,
              lag_seconds: Math.floor(lag.lagSeconds),
            })),
            reason: stuck.map(({ reason }) => reason).join('; '),
          }
        : {}),
    });
  });
}
