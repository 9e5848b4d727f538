import type { Platform } from '../../shared/app-deps.ts';
import { inTransaction } from '../../shared/db/pool.ts';
import { openTextColumns } from '../../shared/privacy/sealed-columns.ts';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';
import { clientTokens, indexMissingClient } from './client-search-index.ts';

export type SearchIndexDeps = Pick<Platform, 'pool' | 'vault' | 'logger'>;

/** Clients indexed per batch, and batches per scheduler tick at most. */
export const INDEX_BATCH = 200;
export const INDEX_BATCHES_PER_PASS = 10;

/**
 * The search index's repair path (client-search-index.ts): the clients of the read model
 * that are not erased and have no client_search_documents row are opened (one batch of
 * keys at a time) and indexed. It builds the index of an install from before the table on
 * the first ticks after the upgrade (a few thousand clients a tick), picks up what a crash
 * between an append and its commit left with EventStoreDB, and re-indexes the clients
 * whose documents row an operator deleted (within INDEX_IDLE_MS). When nothing is missing
 * a look costs one anti-join. Runs on every instance's scheduler; two at once index each client
 * once (a lock per client and a re-check). Resolves to the clients indexed.
 */
export async function indexMissingClients(deps: SearchIndexDeps, signal?: AbortSignal): Promise<number> {
  let indexed = 0;
  for (let batch = 0; batch < INDEX_BATCHES_PER_PASS && !signal?.aborted; batch++) {
    const { rows } = await deps.pool.query<{
      id: string;
      team_id: string;
      name: string | null;
      email: string | null;
      company: string | null;
    }>(
      `select c.id::text, c.team_id::text, c.name, c.email, c.company from clients c
       where not client_is_erased(c.erased_at, c.email)
         and not exists (select 1 from client_search_documents d where d.client_id = c.id)
       order by c.id
       limit $1`,
      [INDEX_BATCH],
    );
    if (rows.length === 0) break;
    const opened = await openTextColumns(deps.vault, rows, ['name', 'email', 'company']);
    const documents = await Promise.all(
      opened
        .filter((client) => client.email !== null)
        .map(async (client) => ({ client, tokens: await clientTokens(deps.vault, client.team_id, client) })),
    );
    const done = await inTransaction(deps.pool, async (tx) => {
      let count = 0;
      for (const { client, tokens } of documents) {
        if (await indexMissingClient(tx, client.team_id, client.id, tokens)) count++;
      }
      return count;
    });
    indexed += done;
    // A batch with nothing left to write (erased while being read): stop until the next tick.
    if (done === 0) break;
  }
  if (indexed > 0) deps.logger.info({ clients: indexed }, 'indexed clients for the workspace search');
  return indexed;
}

/** After a pass that found nothing to index, the next one looks again after this long. */
export const INDEX_IDLE_MS = 5 * 60 * 1000;
let idleUntil = 0;

/**
 * The scheduler's pass: housekeeping, so it counts nothing as handled (like retention).
 * Commands index their clients themselves, so once nothing is missing the pass looks again
 * only every INDEX_IDLE_MS (by the process's own clock: a repair need not wait for the
 * service clock).
 */
export const clientSearchIndexPass: DuePass<SearchIndexDeps> = {
  name: 'client-search-index',
  runDue: async (deps, signal) => {
    if (Date.now() < idleUntil) return 0;
    const indexed = await indexMissingClients(deps, signal);
    if (indexed === 0) idleUntil = Date.now() + INDEX_IDLE_MS;
    return 0;
  },
};
