import { describe, it } from 'vitest';
import { EventStoreDBEventStore } from '../../shared/event-store/eventstoredb-event-store.ts';
import { describeEventStoreContract } from './event-store.contract.ts';

const url = process.env.EVENTSTORE_URL?.trim();

if (url) {
  describeEventStoreContract('EventStoreDB', async () => {
    const store = EventStoreDBEventStore.connect(url);
    return { store, close: () => store.close() };
  });
} else {
  console.warn('EventStoreDB contract suite skipped: EVENTSTORE_URL is not set');
  describe.skip('event store contract: EventStoreDB', () => {
    it.skip('runs when EVENTSTORE_URL is set (or through npm run test:containers)', () => {});
  });
}
