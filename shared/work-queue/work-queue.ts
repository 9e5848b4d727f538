import type { Pool, PoolClient } from '../db/pool.ts';

/**
 * The work queue: a table whose rows are work that falls due, claimed and worked by any
 * number of processes. Every queue of the service keeps these rules:
 *
 * 1. A row is due when the queue's due condition holds by the service clock ($1 of every
 *    claim) and no lease holds it (leased_until null or past, by the database clock).
 * 2. A claim locks due rows `for update skip locked` and leases them (leased_until = now()
 *    + the queue's lease) in one statement: two claimers never take the same row, and a
 *    row whose worker died is claimed again once its lease ends (at least once). A queue
 *    without a lease (`lease: null`) is claimed inside the caller's transaction, which
 *    holds the row lock until it commits: the claim and the work succeed or fail together.
 * 3. The claim strategy decides which due rows come first (./claim-strategies.ts: oldest
 *    first, or fair by team and endpoint with a cap per endpoint).
 * 4. Every attempt ends its row in one of three states, the lease cleared in the same
 *    statement: done (`complete`), due again later (`retryLater`: attempts counted,
 *    next_attempt_at from the queue's retry policy) or failed for good (`failForGood`).
 *    `nextStep` is the rule between them: success is done; a verdict that stops, or the
 *    attempt that reaches the policy's attempt limit, fails for good; anything else waits.
 * 5. A claimed row that was not begun is released (`release`): due again at once, for the
 *    next pass or the next start, not after its lease. ./lanes.ts releases on stop.
 *
 * A queue table has columns id (its key), leased_until (when it has a lease), and attempts
 * and next_attempt_at (when it has a retry policy); the rest is the queue's own.
 */

export type Db = Pool | PoolClient;

/** Column values written to a row, by column name (names come from code, values are parameters). */
export type Columns = Readonly<Record<string, unknown>>;

export interface RetryPolicy {
  /** The attempt with this number fails for good when it does not succeed. */
  maxAttempts: number;
  /** When the next attempt is due after the `attempts`-th failed at `attemptAt` (service clock). */
  nextAttemptAt(attemptAt: Date, attempts: number, retryAfterSeconds?: number): Date;
}

export interface ClaimStrategy {
  /** SQL of the claim: $1 the service clock's now, $2 the most rows, then `params`. */
  sql(queue: QueueShape): string;
  /** Parameters of the strategy, after $1 and $2. */
  params: readonly unknown[];
}

export interface QueueShape {
  table: string;
  /** A due row, its columns written `$row.column`; $1 is the service clock's now. */
  due: string;
  /** A SQL interval (`'2 minutes'`); null: the caller's transaction holds the claim. */
  lease: string | null;
  /** The columns a claim returns. */
  returning: string;
}

export interface QueueDefinition extends QueueShape {
  claim: ClaimStrategy;
  /** The column values of each state an attempt ends in (absent: the queue does not use it). */
  states: { done: Columns; retrying?: Columns; failed?: Columns };
  /** Absent: the queue counts no attempts (a failure rolls back the caller's transaction). */
  retries?: RetryPolicy;
}

export interface WorkQueue extends QueueDefinition {
  readonly claimSql: string;
}

export function defineWorkQueue(definition: QueueDefinition): WorkQueue {
  return { ...definition, claimSql: definition.claim.sql(definition) };
}

/** A due condition (or any condition on the table) with its `$row.` columns on `alias`. */
export function onRow(condition: string, alias: string): string {
  return condition.replaceAll('$row.', `${alias}.`);
}

/** SQL: the row is not held by a lease (database clock). */
export const unleased = (alias: string) => `(${alias}.leased_until is null or ${alias}.leased_until < now())`;

/**
 * Claims at most `limit` due rows (rules 1 to 3); `params` follow the strategy's own
 * (a queue's due condition may use them).
 */
export async function claimDue<Row extends object>(
  db: Db,
  queue: WorkQueue,
  now: Date,
  limit: number,
  params: readonly unknown[] = [],
): Promise<Row[]> {
  const { rows } = await db.query<Row>(queue.claimSql, [now, limit, ...queue.claim.params, ...params]);
  return rows;
}

/** What an attempt came to, as far as the queue is concerned. */
export type AttemptOutcome =
  { kind: 'succeeded' } | { kind: 'stop' } | { kind: 'retry'; retryAfterSeconds?: number };

export type NextStep = { state: 'done' } | { state: 'retrying'; at: Date } | { state: 'failed' };

/** Rule 4: where the `attempts`-th attempt, made at `attemptAt`, leaves its row. */
export function nextStep(
  policy: RetryPolicy,
  outcome: AttemptOutcome,
  attempts: number,
  attemptAt: Date,
): NextStep {
  if (outcome.kind === 'succeeded') return { state: 'done' };
  if (outcome.kind === 'stop' || attempts >= policy.maxAttempts) return { state: 'failed' };
  return { state: 'retrying', at: policy.nextAttemptAt(attemptAt, attempts, outcome.retryAfterSeconds) };
}

export interface Ending {
  /** The attempts made so far, this one included; absent: the attempt is not counted. */
  attempts?: number;
  /** The queue's own columns (they override the state's values). */
  columns?: Columns;
}

/** The row is done. */
export function complete(db: Db, queue: WorkQueue, id: string, ending: Ending = {}): Promise<void> {
  return end(db, queue, id, queue.states.done, null, ending);
}

/** The row is due again at `at` (service clock). */
export function retryLater(
  db: Db,
  queue: WorkQueue,
  id: string,
  at: Date,
  ending: Ending = {},
): Promise<void> {
  return end(db, queue, id, stateOf(queue, 'retrying'), at, ending);
}

/** The row failed for good: it is never claimed again. */
export function failForGood(db: Db, queue: WorkQueue, id: string, ending: Ending = {}): Promise<void> {
  return end(db, queue, id, stateOf(queue, 'failed'), null, ending);
}

/** Ends the attempt as `step` says (complete, retryLater or failForGood). */
export function endAttempt(
  db: Db,
  queue: WorkQueue,
  id: string,
  step: NextStep,
  ending: Ending,
): Promise<void> {
  if (step.state === 'done') return complete(db, queue, id, ending);
  if (step.state === 'retrying') return retryLater(db, queue, id, step.at, ending);
  return failForGood(db, queue, id, ending);
}

/** Rule 5: the rows are due again at once (their leases cleared). */
export async function release(db: Db, queue: WorkQueue, ids: readonly string[]): Promise<void> {
  if (ids.length === 0 || queue.lease === null) return;
  await db.query(`update ${queue.table} set leased_until = null where id = any($1::uuid[])`, [ids]);
}

function stateOf(queue: WorkQueue, state: 'retrying' | 'failed'): Columns {
  const columns = queue.states[state];
  if (!columns) throw new Error(`work queue ${queue.table} has no ${state} state`);
  return columns;
}

async function end(
  db: Db,
  queue: WorkQueue,
  id: string,
  state: Columns,
  nextAttemptAt: Date | null,
  ending: Ending,
): Promise<void> {
  const columns: Record<string, unknown> = { ...state };
  if (queue.retries) {
    if (ending.attempts !== undefined) columns.attempts = ending.attempts;
    columns.next_attempt_at = nextAttemptAt;
  }
  if (queue.lease !== null) columns.leased_until = null;
  Object.assign(columns, ending.columns);
  const names = Object.keys(columns);
  const assignments = names.map((name, index) => `${quoted(name)} = $${index + 2}`).join(', ');
  await db.query(`update ${queue.table} set ${assignments} where id = $1`, [
    id,
    ...names.map((name) => columns[name]),
  ]);
}

function quoted(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a column name: ${name}`);
  return `"${name}"`;
}
