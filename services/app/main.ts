/**
 * The service's entry point. It refuses a Node.js older than 24 first
 * (shared/runtime/node-version.ts). With OTEL_EXPORTER_OTLP_ENDPOINT set, tracing starts first
 * (shared/telemetry/tracing-preload.ts); the service's modules are imported only afterwards,
 * dynamically, because the modules of a static import are all loaded before any runs, and
 * the instrumentations must see pg and node:http load.
 */
import { unsupportedNodeLine } from '../../shared/runtime/node-version.ts';

const refusal = unsupportedNodeLine(process.version);
if (refusal) {
  console.error(refusal);
  process.exit(1);
}
await import('../../shared/telemetry/tracing-preload.ts');
await import('./serve.ts');
