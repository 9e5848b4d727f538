import { readMessagesBatch } from '@event-driven-io/emmett-postgresql';
import pg from 'pg';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';
import { projectTypes } from '../lib/pg-types.ts';
import { median } from '../lib/stats.ts';

export interface ReadPlan {
  sql: string;
  plan: string[];
  /** Execution time reported by EXPLAIN ANALYZE for one batch. */
  serverMs: number;
  /** Wall time of the same query through pg, rows decoded (median of 10). */
  clientMs: number;
}

export interface ReadPlans {
  ours: ReadPlan;
  emmett: ReadPlan;
}

interface Captured {
  text: string;
  values: unknown[];
}

/**
 * Profiles one batch of the global-log read of each store from the middle of its log:
 * the exact SQL each library sends (captured, not copied), its EXPLAIN (ANALYZE, BUFFERS),
 * and the wall time through pg, so server and client costs can be told apart.
 */
export async function explainReads(ourUrl: string, emmettUrl: string, batch: number): Promise<ReadPlans> {
  const ourPool = new pg.Pool({ connectionString: ourUrl, max: 1, types: projectTypes });
  const emmettPool = new pg.Pool({ connectionString: emmettUrl, max: 1, types: projectTypes });
  try {
    const middle = await ourPool.query<{ position: string }>(
      'select position from events order by position offset (select count(*) / 2 from events) limit 1',
    );
    let captured: Captured | undefined;
    const recorder = {
      // The adapter sends a named statement ({ name, text, values }); Emmett sends text and values.
      query: async (statement: string | { text: string; values: unknown[] }, values: unknown[]) => {
        captured = typeof statement === 'string' ? { text: statement, values } : statement;
        return { rows: [] };
      },
    };
    await new PostgresEventStore(recorder as unknown as pg.Pool, ourUrl).readAll({
      after: BigInt(middle.rows[0]!.position),
      limit: batch,
    });
    const ours = await profile(ourPool, captured!);

    const emmettMiddle = await emmettPool.query<{ position: string }>(
      'select global_position as position from emt_messages order by global_position offset (select count(*) / 2 from emt_messages) limit 1',
    );
    await readMessagesBatch(recorder as never, {
      after: BigInt(emmettMiddle.rows[0]!.position),
      batchSize: batch,
    });
    const emmett = await profile(emmettPool, captured!);
    return { ours, emmett };
  } finally {
    await ourPool.end();
    await emmettPool.end();
  }
}

async function profile(pool: pg.Pool, { text, values }: Captured): Promise<ReadPlan> {
  const explained = await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${text}`, values);
  const plan = explained.rows.map((row) => row['QUERY PLAN']);
  const execution = plan.find((line) => line.startsWith('Execution Time'));
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    await pool.query(text, values);
    times.push(performance.now() - started);
  }
  return {
    sql: text.replace(/\s+/g, ' ').trim(),
    plan,
    serverMs: execution ? Number(/([\d.]+) ms/.exec(execution)?.[1]) : Number.NaN,
    clientMs: median(times),
  };
}
