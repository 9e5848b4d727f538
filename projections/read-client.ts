import { z, type ZodType, type ZodTypeDef } from 'zod';
import type { Pool } from '../shared/db/pool.ts';

/**
 * The one client read models are queried through: node-postgres's `query`, which the
 * command pool, the query pool (`readPool`) and a transaction's connection all have. A
 * command reads inside its transaction, a route or worker outside one; the query is the
 * same function either way.
 */
export type ReadClient = Pick<Pool, 'query'>;

/**
 * Numbered parameters for a statement built from parts (a where clause of optional
 * filters): `add` keeps a value and answers its placeholder, so values are never written
 * into the SQL text.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The rows of a statement, each checked against the schema of its read model. */
export async function parsedRows<Row>(
  db: ReadClient,
  schema: ZodType<Row, ZodTypeDef, unknown>,
  text: string,
  values: readonly unknown[],
): Promise<Row[]> {
  const { rows } = await db.query(text, [...values]);
  return rows.map((row: unknown) => schema.parse(row));
}

/** The one row of a statement, checked; undefined when there is none. */
export async function parsedRow<Row>(
  db: ReadClient,
  schema: ZodType<Row, ZodTypeDef, unknown>,
  text: string,
  values: readonly unknown[],
): Promise<Row | undefined> {
  const [row, more] = await parsedRows(db, schema, text, values);
  if (more !== undefined) throw new Error('Expected at most one row');
  return row;
}

const countRow = z.object({ count: z.number() });

/** The number a `select count(*)::int as count ...` statement answers. */
export async function countOf(db: ReadClient, text: string, values: readonly unknown[]): Promise<number> {
  const [row] = await parsedRows(db, countRow, text, values);
  if (row === undefined) throw new Error('Expected a count row');
  return row.count;
}

/** The workspace's lists count their matches up to this many (decision 0104); the public API counts all. */
export const LIST_COUNT_CAP = 10_000;

/** A count that stops early: `count` is exact unless `capped`, when more than `count` match. */
export interface CappedCount {
  count: number;
  capped: boolean;
}

/**
 * How many rows `select 1 <fromWhere>` finds, counting at most `cap` + 1 of them: the work
 * stops once more than `cap` match (docs/decisions/0104-totals-counted-up-to-a-cap.md).
 */
export async function cappedCountOf(
  db: ReadClient,
  fromWhere: string,
  values: readonly unknown[],
  cap: number,
): Promise<CappedCount> {
  const found = await countOf(
    db,
    `select count(*)::int as count from (select 1 ${fromWhere} limit ${cap + 1}) as matches`,
    values,
  );
  return found > cap ? { count: cap, capped: true } : { count: found, capped: false };
}
