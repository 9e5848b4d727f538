import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { ServiceContext } from './context.ts';
import {
  capConnectionsPerAddress,
  maxConnections,
  SERVER_TIMEOUTS,
} from '../../shared/http/connection-limits.ts';
import { handleError } from '../../shared/http/error-handler.ts';
import { noStoreSecretAnswers } from '../../shared/http/secret-answer.ts';
import { compressAnswers } from '../../shared/http/compression.ts';
import { recordHttpMetrics } from '../../shared/metrics/http-metrics.ts';
import { traceRoutes } from '../../shared/telemetry/trace-routes.ts';
import { metricsRoutes } from './metrics-routes.ts';
import { healthRoutes } from './health-routes.ts';
import { guardInput } from '../../shared/http/input-guard.ts';
import { limitBodies } from '../../shared/http/body-limits.ts';
import { guardJsonShape } from '../../shared/http/json-body-guard.ts';
import { openApiDocs } from '../../shared/http/openapi.ts';
import { requestIdOf } from '../../shared/http/request-id.ts';
import { fastifyTrustProxy } from '../../shared/http/trust-proxy.ts';
import { documentPolish } from './openapi-polish.ts';
import { registerRoutes, registerWorkerRoutes } from './routes.ts';
import { servesApi } from '../../shared/config/service-role.ts';

/**
 * Largest JSON body of the public API (the spec leaves it open): 1 MiB, answered with 413
 * above it. Other routes take less (shared/http/body-limits.ts).
 */
export const MAX_BODY_BYTES = 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the rate limiter: a 429 carries neither request_id nor X-Request-Id. */
    omitRequestId?: boolean;
  }
}

export async function buildApp(context: ServiceContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: context.logger as FastifyBaseLogger,
    genReqId: requestIdOf,
    bodyLimit: MAX_BODY_BYTES,
    // The client IP is the entry the nearest trusted proxy appended (shared/http/trust-proxy.ts).
    trustProxy: fastifyTrustProxy(context.settings.TRUST_PROXY),
    // A path parameter of any length reaches its route, whose schema answers the standard
    // 400 or 404; the router's own cap (100 encoded characters) would answer a bare 414.
    maxParamLength: 2048,
    // Graceful shutdown: close idle keep-alive sockets, let requests in flight finish.
    forceCloseConnections: 'idle',
    // Slow and idle sockets are closed (shared/http/connection-limits.ts).
    requestTimeout: SERVER_TIMEOUTS.requestTimeoutMs,
    keepAliveTimeout: SERVER_TIMEOUTS.keepAliveTimeoutMs,
    connectionTimeout: SERVER_TIMEOUTS.connectionTimeoutMs,
    http: {
      headersTimeout: SERVER_TIMEOUTS.headersTimeoutMs,
      connectionsCheckingInterval: SERVER_TIMEOUTS.checkingIntervalMs,
    },
  });
  app.server.maxConnections = maxConnections();
  if (!context.settings.TRUST_PROXY) capConnectionsPerAddress(app.server);
  guardInput(app); // the zod validator compiler behind a check that every input can be stored
  limitBodies(app); // each route's body limit (shared/http/body-limits.ts), before the routes
  guardJsonShape(app); // no JSON object of over 200 keys reaches JSON.parse (shared/http/json-body-guard.ts)
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ error: 'Not found', code: 'not_found', request_id: request.id }),
  );
  app.addHook('onSend', async (request, reply) => {
    if (!request.omitRequestId) reply.header('X-Request-Id', request.id);
  });
  noStoreSecretAnswers(app); // routes marked SECRET_ANSWER, and answers that set a cookie: no-store
  await compressAnswers(app); // from 1 KiB, brotli or gzip, never a secret answer (shared/http/compression.ts)

  traceRoutes(app); // first: the server span is still the active context
  recordHttpMetrics(app, context.metrics); // before the routes: every route's answers are counted

  await openApiDocs(app, documentPolish());
  await app.register(healthRoutes, { context });
  await app.register(metricsRoutes, { registry: context.metrics, token: context.settings.METRICS_TOKEN });
  if (servesApi(context.settings)) await registerRoutes(app, context);
  else await registerWorkerRoutes(app, context);
  return app;
}
