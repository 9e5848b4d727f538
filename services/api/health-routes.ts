import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.ts';

/** GET /healthz: the process answers. GET /readyz: the database and event store answer too. */
export async function healthRoutes(app: FastifyInstance, { context }: { context: ServiceContext }) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const [database, eventStore] = await Promise.all([
      context.pool.query('select 1').then(
        () => 'ok',
        () => 'unreachable',
      ),
      context.eventStore.ping().then(
        () => 'ok',
        () => 'unreachable',
      ),
    ]);
    const ready = database === 'ok' && eventStore === 'ok';
    return reply
      .status(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not_ready', database, event_store: eventStore });
  });
}
