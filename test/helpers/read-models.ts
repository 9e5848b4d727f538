/**
 * The full row-for-row picture of the read models, for "a rebuild equals the live tables":
 * every row of every projection table as sorted JSON text.
 */
import type { Pool } from '../../shared/db/pool.ts';
import { allProjections } from '../../services/app/projections.ts';

export const readModelTables = () => allProjections.flatMap((projection) => projection.tables);

export async function readModelRows(pool: Pool): Promise<Record<string, string[]>> {
  const picture: Record<string, string[]> = {};
  for (const table of readModelTables()) {
    const { rows } = await pool.query<{ row: string }>(`select to_jsonb(t)::text as row from "${table}" t`);
    picture[table] = rows.map((r) => r.row).sort();
  }
  return picture;
}
