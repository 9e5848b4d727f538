import type { PoolClient } from '../db/pool.ts';
import type { RecordedEvent } from '../event-store/event-store.ts';
import { summarizeError } from '../logging/error-without-row-data.ts';
import { park, parkedEvent, type ParkedEvent } from './parked-events.ts';
import { handledBy, type Projection } from './projection.ts';
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
 * Applies events to one projection and moves its checkpoint, inside a transaction. The
 * projection gets only the event types it declares (projection.ts); the checkpoint moves
 * past the others all the same.
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
  const { parked, movedTo } = await applyPastCheckpoint(client, projection, events, table, {
    checkpointName,
    checkpoint,
    mode,
  });
  if (movedTo !== undefined) {
    await client.query(
      `insert into checkpoints (name, position, updated_at) values ($1, $2, now())
       on conflict (name) do update set position = excluded.position, updated_at = excluded.updated_at`,
      [checkpointName, String(movedTo)],
    );
  }
  return parked;
}

/**
 * The work of applyInTransaction without the checkpoint's row: the caller has locked the
 * checkpoint (read as `checkpoint`) and writes `movedTo` (undefined: nothing was new), so
 * a runner of many projections locks and moves all their checkpoints in one statement each.
 */
export async function applyPastCheckpoint(
  client: PoolClient,
  projection: Projection,
  events: RecordedEvent[],
  table: (name: string) => string,
  { checkpointName, checkpoint, mode }: { checkpointName: string; checkpoint: bigint; mode: ApplyMode },
): Promise<{ parked: ParkedEvent[]; movedTo: bigint | undefined }> {
  const fresh = events.filter((event) => event.position > checkpoint);
  if (fresh.length === 0) return { parked: [], movedTo: undefined };
  const handled = handledBy(projection, fresh);
  const failures: Failure[] = [];
  if (handled.length === 0) {
    // Nothing to apply: only the checkpoint moves.
  } else if (mode === 'whole') await projection.apply(client, handled, table);
  else
    failures.push(
      ...(await applyOrSplit(client, projection, handled, table, precedingIn(fresh, checkpoint))),
    );
  const parked: ParkedEvent[] = [];
  for (const { event, readAfter, error } of failures) {
    const entry = parkedEvent(checkpointName, event, readAfter, summarizeError(error, projection.tables));
    await park(client, entry);
    parked.push(entry);
  }
  return { parked, movedTo: fresh[fresh.length - 1]!.position };
}

interface Failure {
  event: RecordedEvent;
  readAfter: bigint;
  error: unknown;
}

/**
 * The position of the event before each event of the log window `fresh` (the checkpoint
 * for the first): a parked event is found again as the first event after it, whatever the
 * projection does not handle in between.
 */
function precedingIn(fresh: RecordedEvent[], checkpoint: bigint): (event: RecordedEvent) => bigint {
  const before = new Map<string, bigint>();
  fresh.forEach((event, index) =>
    before.set(event.id, index === 0 ? checkpoint : fresh[index - 1]!.position),
  );
  return (event) => before.get(event.id)!;
}

async function applyOrSplit(
  client: PoolClient,
  projection: Projection,
  events: RecordedEvent[],
  table: (name: string) => string,
  readAfter: (event: RecordedEvent) => bigint,
): Promise<Failure[]> {
  const error = await tryApply(client, projection, events, table);
  if (error === undefined) return [];
  if (events.length === 1) return [{ event: events[0]!, readAfter: readAfter(events[0]!), error }];
  const middle = Math.ceil(events.length / 2);
  return [
    ...(await applyOrSplit(client, projection, events.slice(0, middle), table, readAfter)),
    ...(await applyOrSplit(client, projection, events.slice(middle), table, readAfter)),
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
