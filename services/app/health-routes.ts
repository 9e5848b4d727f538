import type { FastifyInstance } from 'fastify';
import { countParked, totalOf } from '../../shared/projections/parked-events.ts';
import type { Platform } from '../../shared/app-deps.ts';

export type HealthRouteDeps = Pick<Platform, 'pool' | 'eventStore' | 'projections'>;

/**
 * GET /healthz: the process answers. GET /readyz: the database and event store answer too.
 *
 * Parked events (events a projection cannot apply, GET /admin/v1/parked-events) do not make
 * the service unready: every other event and projection goes on, and taking the instance
 * out of a load balancer would not fix them. While there are some, /readyz adds
 * `parked_events` (how many) and `parked_by_projection`, and the runner logs a warning for
 * each one it parks.
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
    const ready = database === 'ok' && eventStore === 'ok';
    const parkedEvents = totalOf(parked);
    return reply.status(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not_ready',
      database,
      event_store: eventStore,
      ...(parkedEvents > 0 ? { parked_events: parkedEvents, parked_by_projection: parked } : {}),
    });
  });
}
