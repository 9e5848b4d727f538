import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';

/** Latency buckets from 5 ms to 10 s: API answers, slow exports and time-outs alike. */
export const HTTP_SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The label for a request no route matched: the raw URL never becomes a label. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts every answer and its latency by method, route pattern (`/portal/v1/:token`, never
 * the URL itself: tokens live in URLs, and labels must stay few) and status code.
 * Several apps built on one context (tests) count into the same metrics.
 */
export function recordHttpMetrics(app: FastifyInstance, registry: Registry): void {
  const { requests, duration } = httpMetricsOf(registry);
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });
}

type HttpLabel = 'method' | 'route' | 'status_code';

/** The registry's metric of this name, made once: a second app on the registry reuses it. */
function registered<Metric>(registry: Registry, name: string, make: () => Metric): Metric {
  return (registry.getSingleMetric(name) as Metric | undefined) ?? make();
}

function httpMetricsOf(registry: Registry) {
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = registered(
    registry,
    'http_requests_total',
    () =>
      new Counter<HttpLabel>({
        name: 'http_requests_total',
        help: 'HTTP requests answered, by method, route pattern and status code',
        labelNames,
        registers: [registry],
      }),
  );
  const duration = registered(
    registry,
    'http_request_duration_seconds',
    () =>
      new Histogram<HttpLabel>({
        name: 'http_request_duration_seconds',
        help: 'Time from the request to the end of the answer, by method, route pattern and status code',
        labelNames,
        buckets: HTTP_SECONDS_BUCKETS,
        registers: [registry],
      }),
  );
  return { requests, duration };
}
