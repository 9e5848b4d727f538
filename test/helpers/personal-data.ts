import { Writable } from 'node:stream';
import type { Pool } from '../../shared/db/pool.ts';
import type { EventStore } from '../../shared/event-store/event-store.ts';
import { exportEvents } from '../../services/events/export-events.ts';

/**
 * Where a client's personal data can still be read, for the erasure tests: `needles` are
 * the name and email (and parts of them) the test gave the client.
 */

export const containsAny = (needles: readonly string[], text: string) =>
  needles.some((needle) => text.toLowerCase().includes(needle.toLowerCase()));

/** Every table of the database with a row that, as JSON text (to_jsonb), holds one of the needles. */
export async function tablesHolding(pool: Pool, needles: readonly string[]): Promise<string[]> {
  const { rows: tables } = await pool.query<{ table_name: string }>(
    `select table_name from information_schema.tables
     where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const found: string[] = [];
  for (const { table_name: table } of tables) {
    const { rows } = await pool.query<{ count: number }>(
      `select count(*)::int as count from "${table}" t
       where ${needles.map((_, index) => `to_jsonb(t)::text ilike '%' || $${index + 1} || '%'`).join(' or ')}`,
      [...needles],
    );
    if ((rows[0]?.count ?? 0) > 0) found.push(table);
  }
  return found;
}

/** The whole event log as the NDJSON export (services/export) writes it. */
export async function exportText(eventStore: EventStore): Promise<string> {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  await exportEvents(eventStore, out, { from: 0n });
  return chunks.join('');
}
