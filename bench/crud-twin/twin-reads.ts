import type pg from 'pg';

/**
 * The twin's reads: the service's list and get (services/onboardings/onboardings-read-model.ts)
 * as plain SQL over the twin's own rows, the same columns, join and order.
 */
const COLUMNS = `
  o.id, o.status, o.progress_pct, o.created_at, o.due_date, o.due_on, o.due_timezone, o.expires_at,
  o.assigned_to, o.archived_at, o.client_id, c.name as client_name, c.email as client_email,
  o.template_id, o.template_name`;

const VISIBLE = `
  from onboardings o
  join clients c on c.id = o.client_id and c.team_id = o.team_id
  where o.team_id = $1 and o.client_erased_at is null and c.erased_at is null`;

interface Row {
  id: string;
  status: string;
  progress_pct: number;
  created_at: Date;
  due_date: string | null;
  due_on: string | null;
  due_timezone: string | null;
  expires_at: string | null;
  assigned_to: string | null;
  archived_at: Date | null;
  client_id: string;
  client_name: string | null;
  client_email: string | null;
  template_id: string;
  template_name: string;
  template_snapshot?: unknown;
}

const item = (row: Row) => ({
  id: row.id,
  status: row.status,
  progress_pct: row.progress_pct,
  created_at: row.created_at.toISOString(),
  due_date: row.due_date,
  due_on: row.due_on,
  due_timezone: row.due_timezone,
  expires_at: row.expires_at,
  assigned_to: row.assigned_to,
  archived_at: row.archived_at === null ? null : row.archived_at.toISOString(),
  clients: { id: row.client_id, name: row.client_name, email: row.client_email },
  templates: { id: row.template_id, name: row.template_name },
});

export async function twinList(pool: pg.Pool, teamId: string, query: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    pool.query<Row>(
      `select ${COLUMNS} ${VISIBLE} and o.archived_at is null
       order by o.created_at desc, o.position desc limit $2 offset $3`,
      [teamId, query.limit, query.offset],
    ),
    pool.query<{ count: number }>(`select count(*)::int as count ${VISIBLE} and o.archived_at is null`, [
      teamId,
    ]),
  ]);
  return { onboardings: rows.rows.map(item), total: total.rows[0]?.count ?? 0 };
}

export async function twinGet(pool: pg.Pool, teamId: string, id: string) {
  const { rows } = await pool.query<Row>(`select ${COLUMNS}, o.template_snapshot ${VISIBLE} and o.id = $2`, [
    teamId,
    id,
  ]);
  const row = rows[0];
  return row ? { ...item(row), template_snapshot: row.template_snapshot } : undefined;
}
