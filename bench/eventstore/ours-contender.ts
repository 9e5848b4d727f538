import pg from 'pg';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';
import { projectTypes } from '../lib/pg-types.ts';
import type { Contender } from './contender.ts';

/** The project's PostgreSQL adapter (shared/event-store/postgres-event-store.ts), as the service uses it. */
export function ourContender(url: string, poolSize: number): Contender {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: projectTypes });
  pool.on('error', () => undefined);
  const store = new PostgresEventStore(pool, url);
  return {
    key: 'ours',
    label: 'project adapter',
    async appendOne(streamId, event) {
      await store.append(streamId, [event], 'no_stream');
    },
    async appendMany(streamId, events) {
      await store.append(streamId, events, 'no_stream');
    },
    async readAll(batchSize) {
      let after = 0n;
      let count = 0;
      for (;;) {
        const events = await store.readAll({ after, limit: batchSize });
        if (events.length === 0) return count;
        count += events.length;
        after = events[events.length - 1]!.position;
      }
    },
    async logSize() {
      const result = await pool.query<{ count: string }>('select count(*) from events');
      return Number(result.rows[0]!.count);
    },
    async close() {
      await store.close();
      await pool.end();
    },
  };
}
