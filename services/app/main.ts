/**
 * The service's entry point. With OTEL_EXPORTER_OTLP_ENDPOINT set, tracing starts first
 * (shared/telemetry/tracing-preload.ts); the service's modules are imported only afterwards,
 * dynamically, because the modules of a static import are all loaded before any runs, and
 * the instrumentations must see pg and node:http load.
 */
import '../../shared/telemetry/tracing-preload.ts';

await import('./serve.ts');
