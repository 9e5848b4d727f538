import { availableParallelism } from 'node:os';
import { pipeline } from 'node:stream/promises';
import pLimit from 'p-limit';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { createPool } from '../../shared/db/pool.ts';
import type { Projection } from '../../shared/projections/projection.ts';
import { postgresCpuMs } from '../lib/server-cpu.ts';

const limitTable = (table: string) => `"${table}__limit"`;

export interface PhysicalLimit {
  ms: number;
  copyMs: number;
  indexMs: number;
  rows: number;
  indexes: number;
  /** CPU it used: this process's (piping the rows) and PostgreSQL's. */
  cpu: { nodeMs: number; postgresMs: number };
}

/**
 * The rebuild's physical limit on this machine, measured on the rows a rebuild just made:
 * every read model's final rows copied out of its table and into a fresh one with no index
 * (`COPY … TO STDOUT` piped into `COPY … FROM STDIN` through this process, as the rebuild's
 * rows travel), then every index of the table built on the copy; tables and indexes as many
 * at a time as there are cores. What it leaves out is what a rebuild cannot: reading the log
 * and folding it. The fresh tables are dropped afterwards.
 */
export async function measurePhysicalLimit(url: string, projections: Projection[]): Promise<PhysicalLimit> {
  const tables = projections.flatMap((projection) => projection.tables);
  const pool = createPool(url, availableParallelism() + 1);
  try {
    for (const table of tables) {
      await pool.query(`drop table if exists ${limitTable(table)}`);
      await pool.query(`create table ${limitTable(table)} (like "${table}" including defaults)`);
    }
    const indexes = await pool.query<{ definition: string }>(
      `select replace(pg_get_indexdef(i.indexrelid), ' ON public.' || c.relname || ' ',
                      ' ON public.' || c.relname || '__limit ') as definition
       from pg_index i join pg_class c on c.oid = i.indrelid where c.relname = any($1::text[])`,
      [tables],
    );
    const started = performance.now();
    const nodeBefore = process.cpuUsage();
    const postgresBefore = await postgresCpuMs();
    let rows = 0;
    await inParallel(tables, async (table) => {
      const source = await pool.connect();
      const target = await pool.connect();
      try {
        const into = target.query(copyFrom(`copy ${limitTable(table)} from stdin`));
        await pipeline(source.query(copyTo(`copy "${table}" to stdout`)), into);
        rows += into.rowCount ?? 0;
      } finally {
        source.release();
        target.release();
      }
    });
    const copied = performance.now();
    await inParallel(
      indexes.rows.map((row) => row.definition.replace(/^CREATE (UNIQUE )?INDEX \S+ /, 'CREATE $1INDEX ')),
      async (definition) => {
        const client = await pool.connect();
        try {
          // As the rebuild builds its deferred indexes (shared/projections/shadow-indexes.ts).
          await client.query(`set maintenance_work_mem = '256MB'`);
          await client.query(definition);
          await client.query('reset maintenance_work_mem');
        } finally {
          client.release();
        }
      },
    );
    const indexed = performance.now();
    const node = process.cpuUsage(nodeBefore);
    return {
      cpu: { nodeMs: (node.user + node.system) / 1000, postgresMs: (await postgresCpuMs()) - postgresBefore },
      ms: indexed - started,
      copyMs: copied - started,
      indexMs: indexed - copied,
      rows,
      indexes: indexes.rowCount ?? 0,
    };
  } finally {
    for (const table of tables) await pool.query(`drop table if exists ${limitTable(table)}`);
    await pool.end();
  }
}

/** `work` on every item, as many at a time as cores (as the rebuild builds its indexes). */
async function inParallel<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  const oneCoreEach = pLimit(availableParallelism());
  await Promise.all(items.map((item) => oneCoreEach(() => work(item))));
}
