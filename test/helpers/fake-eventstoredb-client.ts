import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamRecordedEvent,
  type AppendExpectedRevision,
  type EventData,
  type EventStoreDBClient,
  type Filter,
  type ReadPosition,
} from '@eventstore/db-client';

/**
 * An in-memory stand-in for the parts of @eventstore/db-client the adapter uses, with the
 * server behaviour the adapter relies on: every event has its own commit position (gaps
 * between them), reading $all forwards from a position includes the event there, a
 * subscription from a position starts after it, and the server writes system events of
 * its own in between. It lets the contract suite run against the adapter without a
 * server; the real server is checked by `npm run test:containers` or EVENTSTORE_URL.
 */
export class FakeEventStoreDBClient {
  private readonly log: AllStreamRecordedEvent[] = [];
  private readonly subscribers = new Set<{ after: bigint; regex?: RegExp; stream: Readable }>();
  private nextPosition = 1000n;

  async appendToStream(
    streamName: string,
    events: EventData[],
    { expectedRevision = 'any' }: { expectedRevision?: AppendExpectedRevision } = {},
  ) {
    // Yield like a network call, so racing appends interleave.
    await new Promise((resolve) => setImmediate(resolve));
    const current = this.currentRevision(streamName);
    const matches =
      expectedRevision === 'any' ||
      (expectedRevision === 'no_stream' && current === 'no_stream') ||
      (expectedRevision === 'stream_exists' && current !== 'no_stream') ||
      expectedRevision === current;
    if (!matches) {
      throw new WrongExpectedVersionError(undefined, { streamName, expected: expectedRevision, current });
    }
    let revision = current === 'no_stream' ? -1n : current;
    for (const event of events) {
      revision += 1n;
      this.write(streamName, revision, event);
    }
    // The server's own bookkeeping lands in $all between our events.
    this.write('$stats-fake', this.currentRevision('$stats-fake') === 'no_stream' ? 0n : 1n, {
      id: randomUUID(),
      contentType: 'application/json',
      type: '$statsCollected',
      data: {},
      metadata: undefined,
    });
    const last = this.log.filter((event) => event.streamId === streamName).at(-1)!;
    return { success: true, nextExpectedRevision: revision, position: last.position };
  }

  readStream(
    streamName: string,
    { direction = 'forwards', fromRevision = 'start' }: { direction?: string; fromRevision?: unknown } = {},
  ) {
    const all = this.log.filter((event) => event.streamId === streamName);
    if (all.length === 0) {
      return this.readable([], new StreamNotFoundError(undefined, streamName));
    }
    // As the server: a forwards read from a revision starts at that revision.
    const events =
      typeof fromRevision === 'bigint' ? all.filter((event) => event.revision >= fromRevision) : all;
    // Stream reads carry the event's own position, as servers from 22.6 send it.
    return this.readable((direction === 'backwards' ? events.reverse() : events).map((event) => ({ event })));
  }

  readAll({
    fromPosition = 'start',
    direction = 'forwards',
    maxCount = Number.MAX_SAFE_INTEGER,
  }: { fromPosition?: ReadPosition; direction?: string; maxCount?: number | bigint } = {}) {
    let events: AllStreamRecordedEvent[];
    if (direction === 'backwards') {
      const before = typeof fromPosition === 'object' ? fromPosition.commit : undefined;
      events = this.log.filter((event) => before === undefined || event.position.commit < before).reverse();
    } else {
      const from =
        typeof fromPosition === 'object' ? fromPosition.commit : fromPosition === 'end' ? null : 0n;
      events = from === null ? [] : this.log.filter((event) => event.position.commit >= from);
    }
    return this.readable(events.slice(0, Number(maxCount)).map((event) => ({ event })));
  }

  subscribeToAll(
    { fromPosition = 'start', filter }: { fromPosition?: ReadPosition; filter?: Filter } = {},
    readableOptions: { highWaterMark?: number } = {},
  ) {
    const stream = new Readable({
      objectMode: true,
      highWaterMark: readableOptions.highWaterMark,
      read() {},
    });
    const subscriber = {
      after: typeof fromPosition === 'object' ? fromPosition.commit : -1n,
      regex: filter && 'regex' in filter ? new RegExp(filter.regex) : undefined,
      stream,
    };
    for (const event of this.log) this.deliver(subscriber, event);
    this.subscribers.add(subscriber);
    stream.on('close', () => this.subscribers.delete(subscriber));
    // Like the real client: cancelling the call does not end the readable stream.
    return Object.assign(stream, { unsubscribe: async () => void this.subscribers.delete(subscriber) });
  }

  async dispose(): Promise<void> {
    for (const subscriber of this.subscribers) subscriber.stream.destroy();
  }

  asClient(): EventStoreDBClient {
    return this as unknown as EventStoreDBClient;
  }

  private write(streamId: string, revision: bigint, event: EventData) {
    const commit = this.nextPosition;
    this.nextPosition += 100n + BigInt(Math.floor(Math.random() * 50));
    const recorded = {
      streamId,
      id: event.id,
      isJson: true,
      revision,
      type: event.type,
      created: new Date(),
      data: JSON.parse(JSON.stringify(event.data)),
      metadata: event.metadata === undefined ? undefined : JSON.parse(JSON.stringify(event.metadata)),
      position: { commit, prepare: commit },
    } as AllStreamRecordedEvent;
    this.log.push(recorded);
    for (const subscriber of this.subscribers) this.deliver(subscriber, recorded);
  }

  private deliver(
    subscriber: { after: bigint; regex?: RegExp; stream: Readable },
    event: AllStreamRecordedEvent,
  ) {
    if (event.position.commit <= subscriber.after) return;
    if (subscriber.regex && !subscriber.regex.test(event.type)) return;
    subscriber.stream.push({ event });
  }

  private currentRevision(streamName: string): bigint | 'no_stream' {
    const last = this.log.filter((event) => event.streamId === streamName).at(-1);
    return last ? last.revision : 'no_stream';
  }

  private readable(items: unknown[], error?: Error) {
    const stream = Readable.from(items, { objectMode: true });
    if (error) stream.destroy(error);
    return Object.assign(stream, { cancel: async () => void stream.destroy() });
  }
}
