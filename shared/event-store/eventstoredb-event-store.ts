import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamRecordedEvent,
} from '@eventstore/db-client';
import type { PoolClient } from '../db/pool.ts';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type StreamSnapshot,
  type RecordedEvent,
  type Subscription,
  type SubscriptionHandler,
} from './event-store.ts';
import {
  isSystemEvent,
  streamEventPosition,
  toEventData,
  toExpected,
  toReadPosition,
  toRecorded,
} from './eventstoredb-mapping.ts';
import { EventStoreDBSubscription } from './eventstoredb-subscription.ts';

/** The EventStoreDB adapter (production): one gRPC client per store. */
export class EventStoreDBEventStore implements EventStore {
  readonly kind = 'eventstoredb' as const;
  /** It cannot join a PostgreSQL transaction: every read model follows the log. */
  readonly inlineReadModels: readonly string[] = [];
  private readonly subscriptions = new Set<EventStoreDBSubscription>();

  constructor(private readonly client: EventStoreDBClient) {}

  /** `connectionString` as EVENTSTORE_URL gives it, e.g. esdb://localhost:2113?tls=false. */
  static connect(connectionString: string): EventStoreDBEventStore {
    return new EventStoreDBEventStore(EventStoreDBClient.connectionString(connectionString));
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError('An append takes at least one event');
    try {
      const result = await this.client.appendToStream(streamId, events.map(toEventData), {
        expectedRevision: toExpected(expected),
      });
      return {
        nextExpectedRevision: result.nextExpectedRevision,
        // The server answers with the position of the last event it wrote.
        position: result.position?.commit ?? (await this.headPosition()),
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new WrongExpectedRevisionError(streamId, expected, error.actualVersion);
      }
      throw error;
    }
  }

  /** A plain append: EventStoreDB cannot join a PostgreSQL transaction. */
  appendWithin(
    _transaction: PoolClient,
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    return this.append(streamId, events, expected);
  }

  readStreamWithin(
    _transaction: PoolClient,
    streamId: string,
    options?: ReadStreamOptions,
  ): Promise<RecordedEvent[]> {
    return this.readStream(streamId, options);
  }

  /**
   * No snapshots: EventStoreDB reads a stream from its own index, and a snapshot kept in
   * PostgreSQL could not commit with the append (docs/operations.md, known limits).
   */
  async readSinceSnapshot(
    streamId: string,
  ): Promise<{ snapshot: StreamSnapshot | undefined; events: RecordedEvent[] }> {
    return { snapshot: undefined, events: await this.readStream(streamId) };
  }

  async saveSnapshot(): Promise<void> {}

  /** Subscriptions of EventStoreDB hear every append by themselves. */
  afterCommit(): void {}

  async readStream(streamId: string, { afterRevision }: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    const fromRevision = afterRevision === undefined ? START : afterRevision + 1n;
    try {
      for await (const resolved of this.client.readStream(streamId, { direction: FORWARDS, fromRevision })) {
        if (resolved.event) events.push(toRecorded(resolved.event, streamEventPosition(resolved.event)));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll({ after, limit }: ReadAllOptions): Promise<RecordedEvent[]> {
    const batch: RecordedEvent[] = [];
    let from = after;
    // Pages may hold only system events (or just the event at `after`): read on until
    // the batch is full or $all ends, so an empty batch always means "nothing newer".
    for (;;) {
      const page = await this.readAllPage(from, limit + 1);
      for (const event of page) {
        if (event.position.commit <= from || isSystemEvent(event)) continue;
        batch.push(toRecorded(event, event.position.commit));
        if (batch.length === limit) return batch;
      }
      if (page.length < limit + 1) return batch;
      from = page[page.length - 1]!.position.commit;
    }
  }

  async headPosition(): Promise<bigint> {
    const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END });
    try {
      for await (const resolved of read) {
        const event = resolved.event;
        if (event && !isSystemEvent(event)) return event.position.commit;
      }
      return 0n;
    } finally {
      await read.cancel();
    }
  }

  /** EventStoreDB shows every committed event to every reader at once. */
  committedHeadPosition(): Promise<bigint> {
    return this.headPosition();
  }

  subscribeToAll(after: bigint, handler: SubscriptionHandler): Subscription {
    const subscription = new EventStoreDBSubscription(this.client, after, handler);
    this.subscriptions.add(subscription);
    subscription.start();
    return {
      stop: async () => {
        this.subscriptions.delete(subscription);
        await subscription.stop();
      },
    };
  }

  async ping(): Promise<void> {
    await this.readAllPage(0n, 1);
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    this.subscriptions.clear();
    await this.client.dispose();
  }

  private async readAllPage(after: bigint, maxCount: number): Promise<AllStreamRecordedEvent[]> {
    const page: AllStreamRecordedEvent[] = [];
    // Reading $all forwards from a position includes the event at that position.
    for await (const resolved of this.client.readAll({ fromPosition: toReadPosition(after), maxCount })) {
      if (resolved.event) page.push(resolved.event);
    }
    return page;
  }
}
