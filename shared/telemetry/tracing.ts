import { createRequire, register } from 'node:module';
import type * as SdkNode from '@opentelemetry/sdk-node';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as InstrumentationHttp from '@opentelemetry/instrumentation-http';
import type * as InstrumentationPg from '@opentelemetry/instrumentation-pg';

/** The value a path holds on a server span until a route matches (as the HTTP metrics label it). */
export const UNROUTED_PATH = 'unmatched';

/**
 * Starts OpenTelemetry tracing: W3C trace context in and out, a server span per request and a
 * client span per outgoing request (node:http and node:https, so hook and webhook deliveries),
 * a span per pg query, exported in batches to OTEL_EXPORTER_OTLP_ENDPOINT over OTLP/HTTP
 * (JSON). The SDK's other signals stay off: metrics are Prometheus' (/metrics), logs pino's.
 *
 * The packages are loaded with `require` here, and only when this runs, so a service without
 * the endpoint loads none of them. It must run before pg and fastify are loaded, since the
 * instrumentations patch those modules as they load (./tracing-preload.ts).
 *
 * A server span never holds the raw URL: tokens live in paths (`/f/:token`) and queries, so
 * the path starts as `unmatched` without the query, and shared/telemetry/trace-routes.ts
 * replaces it with the route pattern once fastify has matched the request. An outgoing span
 * keeps no URL either, only the host and port.
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): { shutdown(): Promise<void> } {
  const require = createRequire(import.meta.url);
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof SdkNode;
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof InstrumentationHttp;
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof InstrumentationPg;

  // The service imports pg as an ES module, which require hooks do not see: this loader hook
  // lets the pg instrumentation patch it too (and intercepts nothing else).
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: ['pg'] } });
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? 'client-onboarding',
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({
        startIncomingSpanHook: () => ({
          'url.path': UNROUTED_PATH,
          'url.query': undefined,
        }),
        // A hook's target URL may hold its receiver's secret in the path or query: the span
        // keeps the host and port (server.address, server.port) only.
        startOutgoingSpanHook: () => ({ 'url.full': undefined }),
      }),
      // Statement text only ($1 placeholders): parameter values never reach a span.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
