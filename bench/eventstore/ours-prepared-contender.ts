import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';
import { projectTypes } from '../lib/pg-types.ts';
import type { Contender } from './contender.ts';

const STATEMENT_NAME = 'bench_append';

/**
 * Diagnostic for a proposed change to the adapter (see bench/analysis.md): the adapter's
 * own statement of a standalone append — captured from it, not copied — sent as a named
 * (prepared) statement, so PostgreSQL plans it once per connection instead of on every
 * append: planning this statement (four CTEs) costs more than running it. The adapter's
 * post-commit NOTIFY is left out (it is at most one query per burst of appends). Returns
 * undefined when the statement no longer takes the parameters it took when this was
 * written (the diagnostic is then left out).
 */
export async function oursPreparedContender(url: string, poolSize: number): Promise<Contender | undefined> {
  const statement = await capturedAppendStatement(url);
  if (!statement) return undefined;
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: projectTypes });
  pool.on('error', () => undefined);
  const append = (streamId: string, event: { type: string; data: unknown; metadata: unknown }) =>
    pool.query({
      name: STATEMENT_NAME,
      text: statement,
      values: [
        streamId,
        1,
        [randomUUID()],
        [event.type],
        [JSON.stringify(event.data)],
        [JSON.stringify(event.metadata)],
      ],
    });
  try {
    await append(`probe-${randomUUID()}`, { type: 'probe', data: {}, metadata: {} });
  } catch {
    await pool.end();
    return undefined;
  }
  return {
    key: 'ours-prepared',
    label: "adapter's append as a prepared statement (diagnostic)",
    diagnostic: true,
    async appendOne(streamId, event) {
      await append(streamId, event);
    },
    async close() {
      await pool.end();
    },
  };
}

/** The first statement `append(..., 'no_stream')` sends, and only if it takes the 6 parameters used above. */
async function capturedAppendStatement(url: string): Promise<string | undefined> {
  let captured: { text: string; values: unknown[] } | undefined;
  const recorder = {
    query: async (text: string, values: unknown[]) => {
      captured ??= { text, values };
      return { rows: [] };
    },
  } as unknown as pg.Pool;
  await new PostgresEventStore(recorder, url)
    .append('probe', [{ type: 'probe', data: {} }], 'no_stream')
    .catch(() => undefined);
  return captured && captured.values.length === 6 ? captured.text : undefined;
}
