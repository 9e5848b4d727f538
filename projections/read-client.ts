import type { Pool } from '../shared/db/pool.ts';

/**
 * The one client read models are queried through: node-postgres's `query`, which the
 * command pool, the query pool (`readPool`) and a transaction's connection all have. A
 * command reads inside its transaction, a route or worker outside one; the query is the
 * same function either way.
 */
export type ReadClient = Pick<Pool, 'query'>;
