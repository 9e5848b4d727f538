import { dumbo } from '@event-driven-io/dumbo';
import { getPostgreSQLEventStore, readMessagesBatch } from '@event-driven-io/emmett-postgresql';
import pg from 'pg';
import type { Contender } from './contender.ts';

/**
 * Emmett's PostgreSQL event store (@event-driven-io/emmett-postgresql), configured as its
 * documentation shows, over a pg pool of the same size as ours. Appends go through
 * `appendToStream` (a transaction around its emt_append_to_stream function); the global
 * log is read with `readMessagesBatch`, the function Emmett's own consumers pull with.
 * `dumbo` is Emmett's SQL layer (its dependency), used here only to hand it our pg pool.
 */
export async function emmettContender(url: string, poolSize: number): Promise<Contender> {
  const pgPool = new pg.Pool({ connectionString: url, max: poolSize });
  pgPool.on('error', () => undefined);
  const pool = dumbo({ connectionString: url, pool: pgPool });
  const store = getPostgreSQLEventStore(url, { connectionOptions: { dumbo: pool } });
  await store.schema.migrate();
  return {
    key: 'emmett',
    label: 'Emmett PostgreSQL store',
    async appendOne(streamId, event) {
      await store.appendToStream(streamId, [event]);
    },
    async appendMany(streamId, events) {
      await store.appendToStream(streamId, events);
    },
    async readAll(batchSize) {
      let after = -1n;
      let count = 0;
      for (;;) {
        const batch = await readMessagesBatch(pool.execute, { after, batchSize });
        if (batch.messages.length === 0) return count;
        count += batch.messages.length;
        after = batch.currentGlobalPosition;
      }
    },
    async logSize() {
      const result = await pgPool.query<{ count: string }>('select count(*) from emt_messages');
      return Number(result.rows[0]!.count);
    },
    async close() {
      await store.close();
      await pgPool.end();
    },
  };
}
