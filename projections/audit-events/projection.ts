import { AUDIT_EVENT_TYPES, toAuditRecord } from '../../services/events/audit-event-types.ts';
import { teamFeedProjection } from '../team-feed-projection.ts';

/**
 * audit_events: the events feed of every team (GET /api/v1/events). Which events are
 * audit events, under which name and with which data, is services/events/audit-event-types.ts;
 * its toAuditRecord is this read model's pure fold. A team feed (../team-feed-projection.ts):
 * it only grows.
 */
export const auditEventsProjection = teamFeedProjection({
  table: 'audit_events',
  // Read at each batch: the table of audit events is the one place that names them.
  get canHandle() {
    return Object.keys(AUDIT_EVENT_TYPES);
  },
  subjectColumn: 'onboarding_id',
  entry(event) {
    const record = toAuditRecord(event);
    return record && { ...record, subject: record.onboardingId, position: event.position };
  },
});
