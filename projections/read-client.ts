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
