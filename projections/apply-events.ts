import { inTransaction, type Pool, type PoolClient } from '../shared/db/pool.ts';
import type { RecordedEvent } from '../shared/event-store/event-store.ts';
import { summarizeError } from '../shared/error-without-row-data.ts';
import { park, parkedEvent, type ParkedEvent } from './parked-events.ts';
import type { Projection } from './projection.ts';
import { isTransientError } from './transient-errors.ts';

/**
 * `whole`: the batch is applied as it is and any error is thrown (the fast path: no
 * savepoints). `isolating`: the events the projection cannot apply are parked.
 */
export type ApplyMode = 'whole' | 'isolating';

/**
 * Runs `work` (one transaction) in `whole` mode, and once more in `isolating` mode when it
 * failed for good: a batch without a poison event costs nothing extra. A transient error
 * (transient-errors.ts) is thrown on, so the caller tries the batch again later.
 */
export async function wholeThenIsolating<T>(work: (mode: ApplyMode) => Promise<T>): Promise<T> {
  try {
    return await work('whole');
  } catch (error) {
    if (isTransientError(error)) throw error;
    return work('isolating');
  }
}

/**
 * Applies events to one projection and moves its checkpoint, inside a transaction.
 *
 * In `isolating` mode the batch is applied under a savepoint. When the projection fails
 * on it for good (not a lost connection or a serialization failure, see
 * transient-errors.ts), the batch is rolled back to the savepoint and split in halves,
 * each applied the same way, until the events it cannot apply stand alone: those are
 * parked for this checkpoint, every other event is applied in log order, and the
 * checkpoint moves past all of them. One poison event in a batch of n costs about
 * 2·log2(n) tries.
 *
 * A transient error is thrown on: the caller's transaction rolls back and the batch is
 * tried again as a whole.
 */
export async function applyInTransaction(
  client: PoolClient,
  projection: Projection,
  events: RecordedEvent[],
  table: (name: string) => string,
  checkpointName = projection.name,
  mode: ApplyMode = 'isolating',
): Promise<ParkedEvent[]> {
  const locked = await client.query<{ position: string }>(
    'select position from checkpoints where name = $1 for update',
    [checkpointName],
  );
  const checkpoint = BigInt(locked.rows[0]?.position ?? 0);
  const fresh = events.filter((event) => event.position > checkpoint);
  if (fresh.length === 0) return [];
  const failures: Failure[] = [];
  if (mode === 'whole') await projection.apply(client, fresh, table);
  else failures.push(...(await applyOrSplit(client, projection, fresh, table, checkpoint)));
  const parked: ParkedEvent[] = [];
  for (const { event, readAfter, error } of failures) {
    const entry = parkedEvent(checkpointName, event, readAfter, summarizeError(error, projection.tables));
    await park(client, entry);
    parked.push(entry);
  }
  await client.query(
    `insert into checkpoints (name, position, updated_at) values ($1, $2, now())
     on conflict (name) do update set position = excluded.position, updated_at = excluded.updated_at`,
    [checkpointName, String(fresh[fresh.length - 1]!.position)],
  );
  return parked;
}

/** The same in a transaction of its own. */
export function applyToProjection(
  pool: Pool,
  projection: Projection,
  events: RecordedEvent[],
  table: (name: string) => string,
  checkpointName = projection.name,
): Promise<ParkedEvent[]> {
  return inTransaction(pool, (client) =>
    applyInTransaction(client, projection, events, table, checkpointName),
  );
}

interface Failure {
  event: RecordedEvent;
  readAfter: bigint;
  error: unknown;
}

async function applyOrSplit(
  client: PoolClient,
  projection: Projection,
  events: RecordedEvent[],
  table: (name: string) => string,
  readAfter: bigint,
): Promise<Failure[]> {
  const error = await tryApply(client, projection, events, table);
  if (error === undefined) return [];
  if (events.length === 1) return [{ event: events[0]!, readAfter, error }];
  const middle = Math.ceil(events.length / 2);
  const left = events.slice(0, middle);
  const right = events.slice(middle);
  return [
    ...(await applyOrSplit(client, projection, left, table, readAfter)),
    ...(await applyOrSplit(client, projection, right, table, left[left.length - 1]!.position)),
  ];
}

/** Applies under a savepoint: undefined when applied, else the error (its work rolled back). */
export async function tryApply(
  client: PoolClient,
  projection: Projection,
  events: RecordedEvent[],
  table: (name: string) => string,
): Promise<unknown> {
  await client.query('savepoint projection_apply');
  try {
    await projection.apply(client, events, table);
  } catch (error) {
    if (isTransientError(error)) throw error;
    // Fails itself (and so throws) when the connection is gone: the batch is tried again.
    await client.query('rollback to savepoint projection_apply');
    await client.query('release savepoint projection_apply');
    return error ?? new Error('projection failed without an error');
  }
  await client.query('release savepoint projection_apply');
  return undefined;
}
