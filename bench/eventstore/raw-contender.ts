import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { projectTypes } from '../lib/pg-types.ts';
import type { Contender } from './contender.ts';

/**
 * The physical reference: one single-row INSERT per event through pg, autocommit, into a
 * plain table with the columns of the events table (same row width) and only a primary
 * key. Every insert is one commit, hence one WAL flush, like every append.
 */
export async function rawContender(url: string, poolSize: number): Promise<Contender> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: projectTypes });
  pool.on('error', () => undefined);
  await pool.query(`
    create table if not exists raw_events (
      id bigint generated always as identity primary key,
      transaction_id xid8 not null default pg_current_xact_id(),
      event_id uuid not null,
      stream_id text not null,
      revision bigint not null,
      type text not null,
      data jsonb not null,
      metadata jsonb not null,
      recorded_at timestamptz not null default now()
    )`);
  return {
    key: 'raw',
    label: 'raw pg INSERT',
    async appendOne(streamId, event) {
      await pool.query(
        `insert into raw_events (event_id, stream_id, revision, type, data, metadata)
         values ($1, $2, 0, $3, $4, $5)`,
        [randomUUID(), streamId, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata)],
      );
    },
    async close() {
      await pool.end();
    },
  };
}
