import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolClient } from '../../shared/db/pool.ts';
import {
  WrongExpectedRevisionError,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '../../shared/event-store/event-store.ts';

export interface ContractTarget {
  store: EventStore;
  close(): Promise<void>;
  /**
   * Runs `work` in a PostgreSQL transaction, committed when it resolves and rolled back
   * when it throws. Without it the work gets a transaction that refuses every query: an
   * adapter that appends on its own must not touch it.
   */
  transaction?<T>(work: (tx: PoolClient) => Promise<T>): Promise<T>;
  /** The adapter's appendWithin commits and rolls back with the caller's transaction. */
  joinsTransactions?: boolean;
}

const untouchableTransaction = new Proxy({} as PoolClient, {
  get(_target, property) {
    throw new Error(`an adapter that appends on its own used the transaction's ${String(property)}`);
  },
});

const event = (n: number): NewEvent => ({
  type: 'thing_happened',
  data: { n },
  metadata: { command_id: `c${n}` },
});

async function collectUntil(
  store: EventStore,
  after: bigint,
  accept: (event: RecordedEvent) => boolean,
  count: number,
): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const subscription = store.subscribeToAll(after, {
    async onEvents(events) {
      seen.push(...events.filter(accept));
      if (seen.length >= count) finish();
    },
  });
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  await subscription.stop();
  return seen;
}

/** The behaviour every event store adapter must have. */
export function describeEventStoreContract(name: string, open: () => Promise<ContractTarget>) {
  describe(`event store contract: ${name}`, () => {
    let target: ContractTarget;
    let store: EventStore;
    beforeAll(async () => {
      target = await open();
      store = target.store;
    });
    afterAll(() => target?.close());

    const stream = () => `contract-${randomUUID()}`;
    const transaction = <T>(work: (tx: PoolClient) => Promise<T>): Promise<T> =>
      target.transaction ? target.transaction(work) : work(untouchableTransaction);

    it('appends to a new stream with no_stream and refuses a second no_stream', async () => {
      const id = stream();
      const first = await store.append(id, [event(1), event(2)], 'no_stream');
      expect(first.nextExpectedRevision).toBe(1n);
      const error = await store.append(id, [event(3)], 'no_stream').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect((error as WrongExpectedRevisionError).actual).toBe(1n);
      expect(await store.readStream(id)).toHaveLength(2);
    });

    it('appends with an exact revision and refuses a stale one', async () => {
      const id = stream();
      const first = await store.append(id, [event(1)], 'no_stream');
      const second = await store.append(id, [event(2)], first.nextExpectedRevision);
      expect(second.nextExpectedRevision).toBe(1n);
      expect(second.position > first.position).toBe(true);
      await expect(store.append(id, [event(3)], 0n)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(store.append(stream(), [event(3)], 0n)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect((await store.readStream(id)).map((e) => e.data.n)).toEqual([1, 2]);
    });

    it('appends with any to new and existing streams', async () => {
      const id = stream();
      await store.append(id, [event(1)], 'any');
      const result = await store.append(id, [event(2), event(3)], 'any');
      expect(result.nextExpectedRevision).toBe(2n);
    });

    it('lets exactly one of two racing appends with the same expected revision win', async () => {
      const id = stream();
      const { nextExpectedRevision } = await store.append(id, [event(0)], 'no_stream');
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, (_, n) => store.append(id, [event(n + 1)], nextExpectedRevision)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        expect((r as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
      }
      expect(await store.readStream(id)).toHaveLength(2);
    });

    it('reads a stream in revision order with ids, types, data and metadata', async () => {
      const id = stream();
      const eventId = randomUUID();
      await store.append(id, [{ ...event(1), id: eventId }, event(2)], 'no_stream');
      const events = await store.readStream(id);
      expect(events.map((e) => e.revision)).toEqual([0n, 1n]);
      expect(events[0]).toMatchObject({
        id: eventId,
        streamId: id,
        type: 'thing_happened',
        data: { n: 1 },
        metadata: { command_id: 'c1' },
      });
      expect(events[0]!.recordedAt).toBeInstanceOf(Date);
      expect(await store.readStream(stream())).toEqual([]);
    });

    it('reads a stream after a revision (the events past a snapshot)', async () => {
      const id = stream();
      await store.append(id, [event(1), event(2), event(3)], 'no_stream');
      expect((await store.readStream(id, { afterRevision: 0n })).map((e) => e.data.n)).toEqual([2, 3]);
      expect((await store.readStream(id, { afterRevision: 2n })).map((e) => e.data.n)).toEqual([]);
      expect(await store.readStream(stream(), { afterRevision: 5n })).toEqual([]);
    });

    it('reads the global log from a position in batches, in position order', async () => {
      const start = await store.headPosition();
      const id = stream();
      for (let n = 0; n < 7; n++) await store.append(id, [event(n)], 'any');
      const seen: RecordedEvent[] = [];
      let after = start;
      for (;;) {
        const batch = await store.readAll({ after, limit: 3 });
        if (batch.length === 0) break;
        expect(batch.length).toBeLessThanOrEqual(3);
        seen.push(...batch);
        after = batch[batch.length - 1]!.position;
      }
      const ours = seen.filter((e) => e.streamId === id);
      expect(ours.map((e) => e.data.n)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      const positions = seen.map((e) => e.position);
      expect(positions.every((p, i) => i === 0 || p > positions[i - 1]!)).toBe(true);
      expect(await store.headPosition()).toBe(positions[positions.length - 1]);
    });

    it('gives the committed head: the newest event, not behind the visible head', async () => {
      const appended = await store.append(stream(), [event(1)], 'no_stream');
      const committed = await store.committedHeadPosition();
      expect(committed).toBeGreaterThanOrEqual(appended.position);
      expect(committed).toBeGreaterThanOrEqual(await store.headPosition());
    });

    it('appends within a transaction with the expected revision; readers see it once committed', async () => {
      const id = stream();
      const start = await store.headPosition();
      const following = collectUntil(store, start, (e) => e.streamId === id, 2);
      const appended = await transaction(async (tx) => {
        const first = await store.appendWithin(tx, id, [event(1)], 'no_stream');
        expect((await store.readStreamWithin(tx, id)).map((e) => e.data.n)).toEqual([1]);
        return store.appendWithin(tx, id, [event(2)], first.nextExpectedRevision);
      });
      store.afterCommit();
      expect(appended.nextExpectedRevision).toBe(1n);
      const events = await store.readStream(id);
      expect(events.map((e) => e.data.n)).toEqual([1, 2]);
      expect(events.at(-1)!.position).toBe(appended.position);
      expect((await following).map((e) => e.data.n)).toEqual([1, 2]);
    });

    it('refuses a stale expected revision within a transaction', async () => {
      const id = stream();
      await store.append(id, [event(1)], 'no_stream');
      const error = await transaction((tx) => store.appendWithin(tx, id, [event(2)], 'no_stream')).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect((error as WrongExpectedRevisionError).actual).toBe(0n);
      await expect(
        transaction((tx) => store.appendWithin(tx, stream(), [event(1)], 3n)),
      ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect(await store.readStream(id)).toHaveLength(1);
    });

    it('rolls an append within a transaction back with the transaction, where the adapter joins it', async () => {
      if (!target.joinsTransactions) return;
      const id = stream();
      const failure = new Error('the caller fails after the append');
      const error = await transaction(async (tx) => {
        await store.appendWithin(tx, id, [event(1)], 'no_stream');
        throw failure;
      }).catch((e: unknown) => e);
      expect(error).toBe(failure);
      expect(await store.readStream(id)).toEqual([]);
      await transaction((tx) => store.appendWithin(tx, id, [event(2)], 'no_stream'));
      expect((await store.readStream(id)).map((e) => e.data.n)).toEqual([2]);
    });

    it('subscribes from a checkpoint: catches up, then follows live, each event once', async () => {
      const id = stream();
      await store.append(id, [event(0), event(1)], 'no_stream');
      const checkpoint = (await store.readStream(id))[0]!.position;
      const collecting = collectUntil(store, checkpoint, (e) => e.streamId === id, 3);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await store.append(id, [event(2)], 'any');
      await store.append(id, [event(3)], 'any');
      const seen = await collecting;
      expect(seen.map((e) => e.data.n)).toEqual([1, 2, 3]);
    });
  });
}
