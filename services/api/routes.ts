import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.ts';

/**
 * Every route plugin of the service. Each feature adds its own line here; the plugins
 * carry their own prefixes (/api/v1, /admin/v1, /portal/v1).
 */
export async function registerRoutes(app: FastifyInstance, context: ServiceContext) {
  void app;
  void context;
}
