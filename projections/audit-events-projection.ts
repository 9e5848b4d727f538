import { toAuditRecord } from '../shared/domain/audit-event-types.ts';
import type { Projection } from './projection.ts';

/**
 * audit_events: the events feed of every team (GET /api/v1/events). Which events are
 * audit events, under which name and with which data, is shared/domain/audit-event-types.ts.
 */
export const auditEventsProjection: Projection = {
  name: 'audit_events',
  tables: ['audit_events'],
  async apply(client, events, table) {
    const records = events.flatMap((event) => {
      const record = toAuditRecord(event);
      return record ? [{ record, position: event.position }] : [];
    });
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
};
