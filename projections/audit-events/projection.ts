import {
  AUDIT_EVENT_TYPES,
  toAuditRecord,
  type AuditRecord,
} from '../../services/events/audit-event-types.ts';
import { readModelProjection } from '../../shared/projections/projection.ts';

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
       select id, team_id, type, onboarding_id, data, occurred_at, position
       from jsonb_to_recordset($1::jsonb) as r(
         id uuid, team_id uuid, type text, onboarding_id uuid, data jsonb, occurred_at timestamptz, position bigint)
       on conflict (id) do nothing`,
      [
        JSON.stringify(
          records.map(({ record, position }) => ({
            id: record.id,
            team_id: record.teamId,
            type: record.type,
            onboarding_id: record.onboardingId,
            data: record.data,
            occurred_at: record.occurredAt,
            position: String(position),
          })),
        ),
      ],
    );
  },
});
