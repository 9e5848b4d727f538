import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from './pool.ts';

/** A value of a COPY row: null is SQL NULL; objects and arrays are written as JSON. */
export type CopyValue = string | number | bigint | boolean | Date | object | null | undefined;

/** Rows encoded at a time into one chunk of the COPY stream. */
const ROWS_PER_CHUNK = 500;

/**
 * Writes the `columns` of each of `rows` into `table` with one `COPY … FROM STDIN`
 * (pg-copy-streams): PostgreSQL reads each column with its input function only, where an
 * `insert … select from jsonb_to_recordset` first parses the whole batch as one JSON
 * document. The rows must be new: COPY has no ON CONFLICT, and a duplicate key fails the
 * statement. No rows, no statement.
 */
export async function copyRows<Column extends string>(
  client: PoolClient,
  table: string,
  columns: readonly Column[],
  rows: readonly Readonly<Record<Column, CopyValue>>[],
): Promise<void> {
  if (rows.length === 0) return;
  const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
  await pipeline(Readable.from(chunks(columns, rows)), stream);
}

function* chunks<Column extends string>(
  columns: readonly Column[],
  rows: readonly Readonly<Record<Column, CopyValue>>[],
): Generator<string> {
  let chunk = '';
  let count = 0;
  for (const row of rows) {
    chunk += columns.map((column) => copyText(row[column])).join('\t') + '\n';
    if (++count === ROWS_PER_CHUNK) {
      yield chunk;
      chunk = '';
      count = 0;
    }
  }
  if (chunk !== '') yield chunk;
}

/** One value in COPY's text format: `\N` for null, backslash escapes for the four special characters. */
export function copyText(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[\\\n\r\t]/.test(text) ? text.replace(/[\\\n\r\t]/g, escape) : text;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escape = (character: string) => ESCAPES[character]!;
