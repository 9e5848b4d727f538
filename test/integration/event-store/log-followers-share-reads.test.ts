import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { RecordedEvent } from '../../../shared/event-store/event-store.ts';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

/**
 * The followers of one process share reads of the same log window
 * (PostgresEventStore.readAllShared): every follower still gets every event in order, and
 * a handler that changes its events never changes what another follower sees.
 */
let database: TestDatabase;
let store: PostgresEventStore;

beforeAll(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore(database.pool, database.url);
});

afterAll(async () => {
  await store?.close();
  await database?.drop();
});

test('followers at one position share reads, each with its own copy of the events', async () => {
  const start = await store.headPosition();
  const reads = vi.spyOn(store, 'readWindow');
  const followers = 5;
  const seen: RecordedEvent[][] = Array.from({ length: followers }, () => []);
  const subscriptions = seen.map((events, index) =>
    store.subscribeToAll(start, {
      onEvents: async (batch) => {
        events.push(...batch.map((event) => structuredClone(event)));
        // The first follower scribbles on what it was given.
        if (index === 0) for (const event of batch) (event.data as { n: unknown }).n = 'changed';
      },
    }),
  );
  const stream = `thing-${start}`;
  for (let n = 1; n <= 20; n++) await store.append(stream, [{ type: 'thing_happened', data: { n } }], 'any');
  await vi.waitFor(() => expect(seen.every((events) => events.length === 20)).toBe(true), {
    timeout: 10_000,
  });
  for (const events of seen) {
    expect(events.map((event) => (event.data as { n: number }).n)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  }
  await Promise.all(subscriptions.map((subscription) => subscription.stop()));
  // Five followers woken together by each append read the log together, not five times each.
  const nonEmptyWindows = new Set(reads.mock.calls.map(([options]) => `${options.after}`));
  expect(reads.mock.calls.length).toBeLessThan(followers * nonEmptyWindows.size);
});
