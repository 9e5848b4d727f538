/**
 * The events feature (the audit log, the event export and the Kafka relay) as other code may
 * use it. Other features and the composition (services/app/) import events only through this
 * file or events/contract/.
 */

// The audit record of every event type
export {
  AUDIT_EVENT_TYPES,
  toAuditRecord,
  type AuditEventMapping,
  type AuditRecord,
} from './audit-event-types.ts';

// The event export (npm run events:export, services/app/cli/export-cli.ts)
export { exportEvents } from './export-events.ts';

// The relay
export { RelayHealth } from './relay-health.ts';
export { registerRelayMetrics } from './relay-metrics.ts';
export { startOwnedKafkaRelay } from './start-relay.ts';

// Public API (/api/v1)
export { auditEventSchema, eventsRoutes, type EventsRouteDeps } from './events-routes.ts';

// Operator API (/admin/v1)
export { relaySkipRoutes } from './relay-skip-routes.ts';
