import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.ts';
import { inTransaction } from '../db/pool.ts';
import { fairByTeamAndEndpoint, oldestFirst } from './claim-strategies.ts';
import { workInLanes } from './lanes.ts';
import {
  claimDue,
  defineWorkQueue,
  endAttempt,
  nextStep,
  release,
  type AttemptOutcome,
  type QueueDefinition,
  type RetryPolicy,
} from './work-queue.ts';

/*
 * The work queue on a real PostgreSQL: two claimers never take the same row, a lease that
 * runs out lets the row be claimed again, attempts end in a retry or a final failure, a
 * stopped pass releases what it claimed and did not start, and a queue without a lease is
 * held by the claiming transaction.
 */

let database: TestDatabase;
const NOW = new Date('2030-01-01T00:00:00Z');
const MINUTE = 60_000;

const retries: RetryPolicy = {
  maxAttempts: 3,
  nextAttemptAt: (attemptAt, attempts) => new Date(attemptAt.getTime() + attempts * MINUTE),
};

const shape = {
  table: 'queue_items',
  due: "$row.state in ('queued', 'retrying') and $row.next_attempt_at <= $1",
  returning: 'id, attempts',
  states: { done: { state: 'done' }, retrying: { state: 'retrying' }, failed: { state: 'failed' } },
  retries,
} satisfies Partial<QueueDefinition>;

const oldest = (lease: string | null) =>
  defineWorkQueue({ ...shape, lease, claim: oldestFirst('$row.queued_at, $row.id') });

const fair = defineWorkQueue({
  ...shape,
  lease: '1 minute',
  claim: fairByTeamAndEndpoint({ endpoint: 'endpoint', queuedAt: 'queued_at', perEndpoint: 1_000 }),
});

interface Item {
  id: string;
  attempts: number;
}

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query(`
    create table queue_items (
      id uuid primary key,
      team_id uuid not null,
      endpoint text,
      state text not null,
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      leased_until timestamptz,
      queued_at timestamptz not null
    )`);
});
afterAll(async () => database?.drop());
beforeEach(async () => {
  await database.pool.query('truncate queue_items');
});

async function queueItems(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const teams = [randomUUID(), randomUUID(), randomUUID()];
  await database.pool.query(
    `insert into queue_items (id, team_id, endpoint, state, next_attempt_at, queued_at)
     select id, ($2::uuid[])[1 + (n % 3)], 'host-' || (n % 5), 'queued', $3::timestamptz, $3::timestamptz + n * interval '1 millisecond'
     from unnest($1::uuid[]) with ordinality as i(id, n)`,
    [ids, teams, NOW],
  );
  return ids;
}

async function itemRow(id: string) {
  const { rows } = await database.pool.query<{
    state: string;
    attempts: number;
    next_attempt_at: Date | null;
    leased_until: Date | null;
  }>('select state, attempts, next_attempt_at, leased_until from queue_items where id = $1', [id]);
  return rows[0];
}

describe('work queue', () => {
  for (const [name, queue] of [
    ['oldest first', oldest('1 minute')],
    ['fair by team and endpoint', fair],
  ] as const) {
    it(`two concurrent claimers never take the same row (${name})`, async () => {
      const ids = await queueItems(200);
      // Each claimer waits after its first claim until the other has claimed too, so both
      // take part however the machine schedules them; after that they race freely.
      const claimedOnce = [signal(), signal()];
      const claimer = async (me: 0 | 1) => {
        const taken: string[] = [];
        for (;;) {
          const rows = await claimDue<Item>(database.pool, queue, NOW, 7);
          if (taken.length === 0) {
            claimedOnce[me]!.fire();
            await claimedOnce[1 - me]!.fired;
          }
          if (rows.length === 0) return taken;
          taken.push(...rows.map((row) => row.id));
        }
      };
      const [first, second] = await Promise.all([claimer(0), claimer(1)]);
      const all = [...first, ...second];
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual([...ids].sort());
      expect(first.length).toBeGreaterThan(0);
      expect(second.length).toBeGreaterThan(0);
    });
  }

  it('a row whose lease ran out is claimed again', async () => {
    const queue = oldest('300 milliseconds');
    const [id] = await queueItems(1);
    expect((await claimDue<Item>(database.pool, queue, NOW, 10)).map((row) => row.id)).toEqual([id]);
    expect(await claimDue<Item>(database.pool, queue, NOW, 10)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await claimDue<Item>(database.pool, queue, NOW, 10)).map((row) => row.id)).toEqual([id]);
  });

  it('counts attempts, waits between them and fails for good after the last', async () => {
    const queue = oldest('1 minute');
    const id = (await queueItems(1))[0] as string;
    let at = NOW;
    for (let attempts = 1; attempts <= 3; attempts++) {
      const [row] = await claimDue<Item>(database.pool, queue, at, 10);
      expect(row).toEqual({ id, attempts: attempts - 1 });
      const step = nextStep(retries, { kind: 'retry' }, attempts, at);
      await endAttempt(database.pool, queue, id, step, { attempts });
      const stored = await itemRow(id);
      expect(stored?.attempts).toBe(attempts);
      expect(stored?.leased_until).toBeNull();
      if (attempts < 3) {
        expect(stored?.state).toBe('retrying');
        expect(stored?.next_attempt_at).toEqual(new Date(at.getTime() + attempts * MINUTE));
        // Not due before its wait, due after it.
        expect(await claimDue<Item>(database.pool, queue, new Date(at.getTime() + 1), 10)).toEqual([]);
        at = new Date(at.getTime() + attempts * MINUTE);
      } else {
        expect(stored?.state).toBe('failed');
        expect(stored?.next_attempt_at).toBeNull();
      }
    }
    expect(
      await claimDue<Item>(database.pool, queue, new Date(at.getTime() + 365 * 24 * 60 * MINUTE), 10),
    ).toEqual([]);
  });

  it('a success is done and a stopping verdict fails at once, whatever the attempts left', () => {
    const outcomes: AttemptOutcome[] = [
      { kind: 'succeeded' },
      { kind: 'stop' },
      { kind: 'retry', retryAfterSeconds: 5 },
    ];
    expect(outcomes.map((outcome) => nextStep(retries, outcome, 1, NOW))).toEqual([
      { state: 'done' },
      { state: 'failed' },
      { state: 'retrying', at: new Date(NOW.getTime() + MINUTE) },
    ]);
  });

  it('a stopped pass finishes the item in hand and releases the rest for the next start', async () => {
    const queue = oldest('10 minutes');
    const ids = await queueItems(5);
    const stop = new AbortController();
    const worked: string[] = [];
    const count = await workInLanes<Item>({
      claim: (slots) => claimDue<Item>(database.pool, queue, NOW, slots),
      work: async (item) => {
        stop.abort();
        await endAttempt(database.pool, queue, item.id, { state: 'done' }, { attempts: 1 });
        worked.push(item.id);
      },
      release: (items) =>
        release(
          database.pool,
          queue,
          items.map((item) => item.id),
        ),
      lanes: 1,
      batch: 5,
      pollMs: 0,
      budgetMs: Infinity,
      signal: stop.signal,
    });
    expect(count).toBe(1);
    // An UPDATE ... RETURNING claim hands its rows back in no promised order.
    expect(worked).toHaveLength(1);
    const [done] = worked as [string];
    expect(ids).toContain(done);
    expect((await itemRow(done))?.state).toBe('done');
    // Released: claimed again at once, long before their lease would have ended.
    const again = await claimDue<Item>(database.pool, queue, NOW, 10);
    expect(again.map((row) => row.id).sort()).toEqual(ids.filter((id) => id !== done).sort());
  });

  it('without a lease, the claiming transaction holds the row until it ends', async () => {
    const queue = oldest(null);
    const ids = await queueItems(2);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let claimed!: () => void;
    const claimedFirst = new Promise<void>((resolve) => (claimed = resolve));
    const first = inTransaction(database.pool, async (tx) => {
      const rows = await claimDue<Item>(tx, queue, NOW, 1);
      claimed();
      await held;
      throw Object.assign(new Error('rolled back'), { rows });
    }).catch((error: { rows: Item[] }) => error.rows);
    await claimedFirst;
    const second = await inTransaction(database.pool, (tx) => claimDue<Item>(tx, queue, NOW, 2));
    release();
    expect((await first).map((row) => row.id)).toEqual([ids[0]]);
    expect(second.map((row) => row.id)).toEqual([ids[1]]);
    // The first transaction rolled back: its row is due again.
    const third = await inTransaction(database.pool, (tx) => claimDue<Item>(tx, queue, NOW, 2));
    expect(third.map((row) => row.id).sort()).toEqual([...ids].sort());
  });
});

/** A promise fired once from outside (Node 20 has no Promise.withResolvers). */
function signal(): { fired: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => (fire = resolve));
  return { fired, fire };
}
