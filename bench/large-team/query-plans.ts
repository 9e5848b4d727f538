import pg from 'pg';
import type { Pool } from '../../shared/db/pool.ts';

export interface Statement {
  text: string;
  values: unknown[];
}

export interface StatementPlan {
  figure: string;
  sql: string;
  executionMs: number;
  /** The other statements of the same request: their execution times. */
  othersMs: number[];
  plan: string[];
}

/** Plan lines kept per statement in the output: enough for the nodes that cost. */
const PLAN_LINES = 40;

/**
 * The statements sent to PostgreSQL while `work` runs: node-postgres' Client#query (which
 * pool queries and a transaction's queries both go through) is wrapped for that time, so the
 * plans below are those of exactly the SQL and values a route sends.
 */
export async function captureStatements(work: () => Promise<void>): Promise<Statement[]> {
  const statements: Statement[] = [];
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: unknown, config: unknown, values?: unknown, ...rest: unknown[]) {
    if (typeof config === 'string') {
      statements.push({ text: config, values: Array.isArray(values) ? values : [] });
    } else if (config && typeof config === 'object' && 'text' in config) {
      const { text, values: own } = config as { text: string; values?: unknown[] };
      statements.push({ text, values: own ?? (Array.isArray(values) ? values : []) });
    }
    return original.call(this, config, values, ...rest);
  };
  try {
    await work();
  } finally {
    prototype.query = original;
  }
  return statements;
}

/** A cursor's query (the export declares one): planned as the query it runs. */
const CURSOR = /^\s*declare\s+\w+\s+(?:no\s+scroll\s+)?cursor\s+for\s+/i;

/** Reads of the request: not the background's polls (checkpoints, work queues) that ran meanwhile. */
const isRead = (text: string) =>
  (CURSOR.test(text) || /^\s*(select|with)\b/i.test(text)) &&
  !/\bfor update\b|\bskip locked\b|\bfrom checkpoints\b/i.test(text);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each read statement of one request, run again with its own
 * values; the slowest one's plan is kept, the others' execution times beside it.
 */
export async function planOf(pool: Pool, figure: string, statements: Statement[]): Promise<StatementPlan> {
  const timed: { statement: Statement; ms: number; plan: string[] }[] = [];
  for (const statement of statements.filter((candidate) => isRead(candidate.text))) {
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) ${statement.text.replace(CURSOR, '')}`,
      statement.values,
    );
    const plan = rows.map((row) => row['QUERY PLAN']);
    const execution = plan.find((line) => line.startsWith('Execution Time:'));
    timed.push({ statement, ms: execution ? Number.parseFloat(execution.split(':')[1]!) : Number.NaN, plan });
  }
  timed.sort((a, b) => b.ms - a.ms);
  const [slowest, ...others] = timed;
  if (!slowest) return { figure, sql: '', executionMs: Number.NaN, othersMs: [], plan: [] };
  const plan =
    slowest.plan.length > PLAN_LINES
      ? [
          ...slowest.plan.slice(0, PLAN_LINES - 3),
          `  … ${slowest.plan.length - PLAN_LINES + 1} more lines`,
          ...slowest.plan.slice(-2),
        ]
      : slowest.plan;
  return {
    figure,
    sql: oneLine(slowest.statement.text),
    executionMs: slowest.ms,
    othersMs: others.map((other) => other.ms),
    plan,
  };
}

/** The scans of a plan, in one line: which index (or none) each table is read by. */
export function scansOf(plan: string[]): string {
  const scans = plan
    .map((line) =>
      /(Seq Scan|Index Only Scan|Index Scan|Bitmap Index Scan)(?: Backward)?(?: using (\S+))? on (\S+)/.exec(
        line,
      ),
    )
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => (match[2] ? `${match[1]} ${match[2]}` : `${match[1]} ${match[3]}`));
  return [...new Set(scans)].join(', ');
}

/** The plans as markdown, the way bench/RESULTS.md shows the global log read's. */
export function plansMarkdown(plans: StatementPlan[]): string {
  return plans
    .map((plan) =>
      [
        `**${plan.figure}** — slowest statement of the request: ${plan.executionMs.toFixed(1)} ms (EXPLAIN ANALYZE)` +
          (plan.othersMs.length > 0
            ? `; the request's other reads ${plan.othersMs.map((ms) => ms.toFixed(1)).join(', ')} ms`
            : ''),
        '',
        '```sql',
        plan.sql,
        '```',
        '',
        '```',
        ...plan.plan,
        '```',
        '',
      ].join('\n'),
    )
    .join('\n');
}
