import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { codedError } from '../../shared/http/api-error.ts';
import { fromLoopback } from '../../shared/http/loopback.ts';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Who may read /metrics:
 * - METRICS_TOKEN set: `Authorization: Bearer <METRICS_TOKEN>`, else 401 code
 *   `metrics_token_invalid`;
 * - unset: a client on loopback only: the connection's peer and the client IP (behind
 *   TRUST_PROXY, the entry the nearest trusted proxy appended, so a proxy on the same
 *   machine does not open it to the world, and `X-Forwarded-For: 127.0.0.1, ...` written
 *   by a client opens nothing); anyone else gets 404, the answer of an unknown path.
 */
export function metricsAccessCheck(token: string | undefined) {
  const expected = token === undefined ? undefined : digest(token);
  return async function checkMetricsAccess(request: FastifyRequest, reply: FastifyReply) {
    if (expected === undefined) {
      if (fromLoopback(request)) return;
      reply.callNotFound();
      return reply;
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match || !timingSafeEqual(digest(match[1]!), expected)) {
      throw codedError(401, 'metrics_token_invalid', 'Invalid or missing metrics token');
    }
  };
}

/** GET /metrics: the Prometheus text format of the instance's registry. */
export async function metricsRoutes(
  app: FastifyInstance,
  { registry, token }: { registry: Registry; token: string | undefined },
) {
  app.get(
    '/metrics',
    { schema: { hide: true }, onRequest: metricsAccessCheck(token) },
    async (_request, reply) => {
      const text = await registry.metrics();
      return reply
        .header('Content-Type', registry.contentType)
        .header('Cache-Control', 'no-store')
        .send(text);
    },
  );
}
