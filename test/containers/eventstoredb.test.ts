import { describe } from 'vitest';
import { EventStoreDBEventStore } from '../../shared/event-store/eventstoredb-event-store.ts';
import { describeEventStoreContract } from '../contract/event-store.contract.ts';
import { containerStack } from './stack.ts';

const stack = containerStack();

describe.skipIf(!stack)('EventStoreDB in a container', () => {
  describeEventStoreContract('EventStoreDB', async () => {
    const store = EventStoreDBEventStore.connect(stack!.eventStoreUrl);
    return { store, close: () => store.close() };
  });
});
