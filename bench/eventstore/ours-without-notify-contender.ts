import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';
import { projectTypes } from '../lib/pg-types.ts';
import type { Contender } from './contender.ts';

/**
 * Diagnostic for the proposed change to the adapter (see bench/analysis.md): the adapter's
 * own append statement, captured from it (not copied), with its in-transaction
 * `pg_notify` removed. PostgreSQL serialises the commits of every transaction that
 * notified (a cluster-wide lock held through the commit's WAL flush), so this contender
 * shows what appends cost without that. Returns undefined when the statement no longer
 * has the expected shape (the adapter changed), and the diagnostic is left out.
 */
export async function oursWithoutNotifyContender(
  url: string,
  poolSize: number,
): Promise<Contender | undefined> {
  const statement = await capturedAppendStatement(url);
  const withoutNotify = statement && stripNotify(statement);
  if (!withoutNotify) return undefined;
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: projectTypes });
  pool.on('error', () => undefined);
  const append = (streamId: string, event: { type: string; data: unknown; metadata: unknown }) =>
    pool.query(withoutNotify, [
      streamId,
      1,
      [randomUUID()],
      [event.type],
      [JSON.stringify(event.data)],
      [JSON.stringify(event.metadata)],
    ]);
  try {
    await append(`probe-${randomUUID()}`, { type: 'probe', data: {}, metadata: {} });
  } catch {
    await pool.end();
    return undefined;
  }
  return {
    key: 'ours-no-notify',
    label: 'adapter statement without pg_notify (diagnostic)',
    diagnostic: true,
    async appendOne(streamId, event) {
      await append(streamId, event);
    },
    async close() {
      await pool.end();
    },
  };
}

async function capturedAppendStatement(url: string): Promise<string | undefined> {
  let captured: string | undefined;
  const recorder = {
    query: async (text: string) => {
      captured ??= text;
      return { rows: [] };
    },
  } as unknown as pg.Pool;
  const store = new PostgresEventStore(recorder, url);
  await store
    .appendWith(recorder, 'probe', [{ type: 'probe', data: {} }], 'no_stream')
    .catch(() => undefined);
  return captured;
}

/** Removes the `notified` CTE and its join; undefined when they are not found. */
export function stripNotify(statement: string): string | undefined {
  const cte = /,\s*notified as \(select pg_notify\([^)]*\) where exists \(select 1 from appended\)\)/;
  const join = /\s*left join notified on true/;
  if (!cte.test(statement) || !join.test(statement)) return undefined;
  const stripped = statement.replace(cte, '').replace(join, '');
  return stripped.includes('notify') ? undefined : stripped;
}
