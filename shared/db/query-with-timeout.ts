import type { QueryResultRow } from 'pg';
import { inTransaction, type Pool } from './pool.ts';

/**
 * A read that PostgreSQL itself stops after `timeoutMs` (statement_timeout of its own
 * transaction), for reads that must stay cheap: metrics, readiness.
 */
export function queryWithTimeout<Row extends QueryResultRow>(
  pool: Pool,
  sql: string,
  params: unknown[],
  timeoutMs: number,
): Promise<Row[]> {
  return inTransaction(pool, async (client) => {
    await client.query(`set local statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
    return (await client.query<Row>(sql, params)).rows;
  });
}
