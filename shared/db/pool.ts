import pg from 'pg';

// int8 (bigint) columns are event positions and counters: keep them exact as strings and
// convert where needed; timestamps stay Date objects.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => value);

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

export function createPool(url: string, max = 10): pg.Pool {
  // A request that cannot get a connection within 10 s fails (500, retryable) instead of
  // waiting for ever.
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `work` in one transaction on one connection; rolls back on any error. */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
