import type { FastifyInstance } from 'fastify';
import { countParked, totalOf } from '../../shared/projections/parked-events.ts';
import type { Platform } from '../../shared/app-deps.ts';
import type { RelayHealth } from '../events/relay-health.ts';

export type HealthRouteDeps = Pick<Platform, 'pool' | 'eventStore' | 'projections'> & {
  relayHealth?: RelayHealth;
};

/**
 * GET /healthz: the process answers. GET /readyz: the database and event store answer too.
 *
 * Parked events (events a projection cannot apply, GET /admin/v1/parked-events) do not make
 * the service unready: every other event and projection goes on, and taking the instance
 * out of a load balancer would not fix them. While there are some, /readyz adds
 * `parked_events` (how many) and `parked_by_projection`, and the runner logs a warning for
 * each one it parks.
 *
 * The Kafka relay stalled (the same publish failed several times in a row:
 * services/events/relay-health.ts) makes the service not ready: events stop reaching the
 * topic, and an operator has to act. `relay` then says since when, the broker's error and
 * the event refused.
 */
export async function healthRoutes(app: FastifyInstance, { context }: { context: HealthRouteDeps }) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const [database, eventStore, parked] = await Promise.all([
      context.pool.query('select 1').then(
        () => 'ok',
        () => 'unreachable',
      ),
      context.eventStore.ping().then(
        () => 'ok',
        () => 'unreachable',
      ),
      countParked(context.pool, context.projections.projectionNames).catch(() => ({})),
    ]);
    const relay = context.relayHealth?.failingSince ? context.relayHealth.report() : undefined;
    const ready = database === 'ok' && eventStore === 'ok' && relay?.status !== 'stalled';
    const parkedEvents = totalOf(parked);
    return reply.status(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not_ready',
      database,
      event_store: eventStore,
      ...(relay ? { relay } : {}),
      ...(parkedEvents > 0 ? { parked_events: parkedEvents, parked_by_projection: parked } : {}),
    });
  });
}
