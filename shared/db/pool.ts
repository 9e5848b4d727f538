import pg from 'pg';

// int8 (bigint) columns are event positions and counters: keep them exact as strings and
// convert where needed; timestamps stay Date objects.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => value);

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/** Told about a connection that broke outside of a query (the query itself rejects). */
export type ConnectionErrorListener = (error: Error) => void;

/**
 * A pool whose connections never crash the process when they break: PostgreSQL restarted
 * or killed, a backend terminated. pg emits `error` on a client whose connection breaks,
 * idle in the pool or checked out (pg-pool listens only while it is idle), and an
 * unheard `error` event ends the process; so every client gets a listener for its whole
 * life. The query in flight rejects anyway, and the broken client is dropped when it is
 * released. New connections are made when PostgreSQL answers again.
 */
export function createPool(
  url: string,
  max = 10,
  onConnectionError: ConnectionErrorListener = () => undefined,
): pg.Pool {
  // A request that cannot get a connection within 10 s fails (503, retryable: see
  // shared/http/error-handler.ts) instead of waiting for ever.
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  pool.on('connect', (client) => client.on('error', onConnectionError));
  // An idle client's error reaches the listener above too; the pool repeats it here.
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

/** Whether the database answers a trivial statement (readiness). */
export function databaseAnswers(pool: Pick<pg.Pool, 'query'>): Promise<boolean> {
  return pool.query('select 1').then(
    () => true,
    () => false,
  );
}
