import pg from 'pg';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';
import { projectTypes } from '../lib/pg-types.ts';
import type { Contender } from './contender.ts';

/**
 * Diagnostic for the proposed change to the adapter's readAll (see bench/analysis.md):
 * the adapter's own read statement, captured from it, with the LIMIT moved inside and
 * the visibility bound applied outside:
 *
 *   select * from (select ... from events where position > $1 order by position limit $2) e
 *   where position < <visible limit> order by position
 *
 * Same rows (the visible rows of a window in position order are a prefix of it), but the
 * planner no longer has to estimate `position < <expression>`: it always walks the
 * primary key in order and stops after $2 rows. Reads the same database as `ours`.
 */
export async function oursInnerLimitReader(url: string): Promise<Contender | undefined> {
  const statement = await capturedReadStatement(url);
  const rewritten = statement && innerLimit(statement);
  if (!rewritten) return undefined;
  const pool = new pg.Pool({ connectionString: url, max: 2, types: projectTypes });
  pool.on('error', () => undefined);
  return {
    key: 'ours-inner-limit',
    label: 'adapter read with the LIMIT inside (diagnostic)',
    diagnostic: true,
    async appendOne() {
      throw new Error('read-only diagnostic');
    },
    async readAll(batchSize) {
      let after = '0';
      let count = 0;
      for (;;) {
        const result = await pool.query<{ position: string }>(rewritten, [after, batchSize]);
        if (result.rows.length === 0) return count;
        count += result.rows.length;
        after = result.rows[result.rows.length - 1]!.position;
      }
    },
    async logSize() {
      const result = await pool.query<{ count: string }>('select count(*) from events');
      return Number(result.rows[0]!.count);
    },
    async close() {
      await pool.end();
    },
  };
}

async function capturedReadStatement(url: string): Promise<string | undefined> {
  let captured: string | undefined;
  const recorder = {
    query: async (text: string) => {
      captured ??= text;
      return { rows: [] };
    },
  };
  await new PostgresEventStore(recorder as unknown as pg.Pool, url).readAll({ after: 0n, limit: 1 });
  return captured;
}

/** The rewrite; undefined when the statement does not have the expected shape. */
export function innerLimit(statement: string): string | undefined {
  const shape =
    /^\s*select\s+([\s\S]+?)\s+from\s+events\s+where\s+position\s*>\s*\$1\s+and\s+position\s*<\s*([\s\S]+?)\s+order\s+by\s+position\s+limit\s+\$2\s*$/i;
  const match = shape.exec(statement);
  if (!match) return undefined;
  const [, columns, visibleLimit] = match;
  return `select ${columns} from (select ${columns} from events where position > $1 order by position limit $2) e
          where position < ${visibleLimit} order by position`;
}
