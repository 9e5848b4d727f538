import type { ReadClient } from '../read-client.ts';

/** The reads other code may run on the audit_events read model (./projection.ts writes it). */

export interface AuditEventRow {
  id: string;
  type: string;
  occurred_at: Date;
  onboarding_id: string | null;
  data: Record<string, unknown>;
}

/** The team's most recent audit events, newest first; of one type when given. */
export async function teamAuditEvents(
  db: ReadClient,
  teamId: string,
  { limit, type }: { limit: number; type?: string },
): Promise<AuditEventRow[]> {
  const { rows } = await db.query<AuditEventRow>(
    `select id, type, occurred_at, onboarding_id, data from audit_events
     where team_id = $1 ${type === undefined ? '' : 'and type = $3'}
     order by position desc
     limit $2`,
    type === undefined ? [teamId, limit] : [teamId, limit, type],
  );
  return rows;
}
