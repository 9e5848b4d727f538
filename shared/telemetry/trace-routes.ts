import { trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';

/**
 * Names each request's server span by its route pattern and joins its trace id to the
 * request's log lines. Without tracing (./tracing.ts) there is no active span and this does
 * nothing.
 *
 * The span's `url.path` is set to the pattern (`/portal/v1/onboardings/:token`), never the path
 * itself, which may carry a token; a request no route matches keeps `unmatched`.
 */
export function traceRoutes(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const span = trace.getActiveSpan();
    if (!span?.isRecording()) return;
    const route = request.routeOptions.url;
    if (route !== undefined) {
      span.setAttributes({ 'http.route': route, 'url.path': route });
      span.updateName(`${request.method} ${route}`);
    }
    // Both: fastify's own "request completed" line is written through the reply's logger.
    request.log = reply.log = request.log.child({ trace_id: span.spanContext().traceId });
  });
}
