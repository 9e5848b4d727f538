import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import { EventStoreDBEventStore } from '../../shared/event-store/eventstoredb-event-store.ts';
import { FakeEventStoreDBClient } from '../helpers/fake-eventstoredb-client.ts';
import { describeEventStoreContract } from './event-store.contract.ts';

// The adapter's own logic (paging past system events, positions, subscriptions) against an
// in-memory client; the same suite runs against a real server in eventstoredb-event-store.test.ts.
describeEventStoreContract('EventStoreDB adapter, in-memory client', async () => {
  const store = new EventStoreDBEventStore(new FakeEventStoreDBClient().asClient());
  return { store, close: () => store.close() };
});

describe('EventStoreDB adapter subscriptions', () => {
  const event = (n: number) => ({ type: 'thing_happened', data: { n } });

  it('hands over one batch at a time and delivers a failed batch again', async () => {
    const store = new EventStoreDBEventStore(new FakeEventStoreDBClient().asClient());
    const stream = `s-${randomUUID()}`;
    for (let n = 0; n < 20; n++) await store.append(stream, [event(n)], 'any');
    const seen: number[] = [];
    const errors: unknown[] = [];
    let running = 0;
    let failures = 1;
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const subscription = store.subscribeToAll(0n, {
      async onEvents(events: RecordedEvent[]) {
        expect(++running).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        if (seen.length >= 5 && failures-- > 0) throw new Error('handler failed once');
        seen.push(...events.map((e) => e.data.n));
        if (seen.length === 25) finish();
      },
      onError: (error) => errors.push(error),
    });
    for (let n = 20; n < 25; n++) await store.append(stream, [event(n)], 'any');
    await done;
    await subscription.stop();
    await store.close();
    expect(seen).toEqual(Array.from({ length: 25 }, (_, n) => n));
    expect(errors).toHaveLength(1);
  });

  it('stop waits for a batch in progress and delivers nothing after it', async () => {
    const store = new EventStoreDBEventStore(new FakeEventStoreDBClient().asClient());
    await store.append(`s-${randomUUID()}`, [event(1)], 'no_stream');
    let started!: () => void;
    const handling = new Promise<void>((resolve) => (started = resolve));
    let finished = false;
    let calls = 0;
    const subscription = store.subscribeToAll(0n, {
      async onEvents() {
        calls++;
        started();
        await new Promise((resolve) => setTimeout(resolve, 50));
        finished = true;
      },
    });
    await handling;
    await store.append(`s-${randomUUID()}`, [event(2)], 'no_stream');
    await subscription.stop();
    expect(finished).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(1);
    await store.close();
  });
});
