import { startTracing } from './tracing.ts';

/**
 * Imported first by services/app/main.ts, which imports the rest of the service afterwards:
 * with OTEL_EXPORTER_OTLP_ENDPOINT set, tracing starts before pg, fastify and node:http load.
 * Without it, no OpenTelemetry package is loaded and nothing is traced.
 */
export const tracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? startTracing() : undefined;
