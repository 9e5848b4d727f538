import { describe, expect, it } from 'vitest';
import type { EventStore, RecordedEvent } from '../event-store/event-store.ts';
import { ReplayWindow } from './replay-window.ts';

/** A log of `size` events at positions 1..size; counts its reads. */
function logOf(size: number) {
  const reads: bigint[] = [];
  const events = Array.from(
    { length: size },
    (_, index) => ({ position: BigInt(index + 1) }) as RecordedEvent,
  );
  const store = {
    async readAll({ after, limit }: { after: bigint; limit: number }) {
      reads.push(after);
      return events.filter((event) => event.position > after).slice(0, limit);
    },
  } as unknown as EventStore;
  return { store, reads };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ReplayWindow: batches shared by projections going at their own pace', () => {
  it('gives every projection every batch in log order, and tells each batch once all applied it', async () => {
    const { store } = logOf(10);
    const done: bigint[] = [];
    const window = new ReplayWindow(store, 10n, 3, 2, (batch) => done.push(batch.at(-1)!.position));
    const seen: bigint[][] = [[], []];
    await Promise.all(
      [0, 1].map(async (reader) => {
        for (let index = 0; ; index++) {
          const batch = await window.batch(index);
          if (batch.length === 0) return;
          seen[reader]!.push(...batch.map((event) => event.position));
          window.appliedBatch(index, batch);
        }
      }),
    );
    const all = Array.from({ length: 10 }, (_, index) => BigInt(index + 1));
    expect(seen).toEqual([all, all]);
    expect(done).toEqual([3n, 6n, 9n, 10n]);
  });

  it('reads at most two batches ahead of the slowest projection', async () => {
    const { store, reads } = logOf(100);
    const window = new ReplayWindow(store, 100n, 10, 2, () => undefined);
    // The fast projection applies the first two; the slow one applies nothing yet.
    for (const index of [0, 1]) window.appliedBatch(index, await window.batch(index));
    await tick();
    expect(reads).toEqual([0n, 10n]);
    window.appliedBatch(0, await window.batch(0));
    await tick();
    expect(reads).toEqual([0n, 10n, 20n]);
  });

  it('stops every projection when one fails, and a failed read reaches every projection', async () => {
    const { store } = logOf(100);
    const window = new ReplayWindow(store, 100n, 10, 2, () => undefined);
    await window.batch(0);
    window.fail(new Error('a projection failed'));
    await expect(window.batch(5)).rejects.toThrow('a projection failed');

    const broken = {
      readAll: async () => Promise.reject(new Error('log unreachable')),
    } as unknown as EventStore;
    const failing = new ReplayWindow(broken, 100n, 10, 2, () => undefined);
    await expect(failing.batch(0)).rejects.toThrow('log unreachable');
  });

  it('ends at once on an empty log', async () => {
    const { store } = logOf(0);
    const window = new ReplayWindow(store, 0n, 10, 3, () => undefined);
    expect(await window.batch(0)).toEqual([]);
  });
});
