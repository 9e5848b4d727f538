import { AUDIT_EVENT_TYPES, toAuditRecord, type AuditRecord } from '../services/events/audit-event-types.ts';
import { readModelProjection } from '../shared/projections/projection.ts';

/**
 * audit_events: the events feed of every team (GET /api/v1/events). Which events are
 * audit events, under which name and with which data, is services/events/audit-event-types.ts;
 * its toAuditRecord is this read model's pure fold. The feed only grows, so nothing is loaded.
 */
export const auditEventsProjection = readModelProjection<Array<{ record: AuditRecord; position: bigint }>>({
  name: 'audit_events',
  tables: ['audit_events'],
  // Read at each batch: the table of audit events is the one place that names them.
  get canHandle() {
    return Object.keys(AUDIT_EVENT_TYPES);
  },
  load: async () => [],
  fold(records, event) {
    const record = toAuditRecord(event);
    if (record) records.push({ record, position: event.position });
    return records;
  },
  async persist(client, records, table) {
    if (records.length === 0) return;
    await client.query(
      `insert into ${table('audit_events')} (id, team_id, type, onboarding_id, data, occurred_at, position)
       select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::jsonb[], $6::timestamptz[], $7::bigint[])
       on conflict (id) do nothing`,
      [
        records.map(({ record }) => record.id),
        records.map(({ record }) => record.teamId),
        records.map(({ record }) => record.type),
        records.map(({ record }) => record.onboardingId),
        records.map(({ record }) => JSON.stringify(record.data)),
        records.map(({ record }) => record.occurredAt),
        records.map(({ position }) => String(position)),
      ],
    );
  },
});
