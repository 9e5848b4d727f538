import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * The plugin's instance with zod route schemas (fastify-type-provider-zod), so a handler's
 * request and answer are typed from its schema. A route plugin types its app once and hands
 * the typed app to each of its route functions.
 */
export function zodApp(plain: FastifyInstance) {
  return plain.withTypeProvider<ZodTypeProvider>();
}

export type ZodApp = ReturnType<typeof zodApp>;
