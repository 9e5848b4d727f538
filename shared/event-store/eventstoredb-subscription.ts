import {
  excludeSystemEvents,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type EventStoreDBClient,
} from '@eventstore/db-client';
import type { RecordedEvent, SubscriptionHandler } from './event-store.ts';
import { isSystemEvent, toReadPosition, toRecorded } from './eventstoredb-mapping.ts';
import { WakeableSleep } from '../runtime/wakeable-sleep.ts';

const BATCH_SIZE = 500;
const RETRY_MS = 500;

/**
 * Takes what a readable stream has buffered, up to `max` items at a time. Between calls the
 * stream stays paused, so the server is held back while our handler works (back-pressure).
 */
/** The part of a readable stream the reader uses; the client's subscription types its events narrowly. */
interface PausedStream {
  on(event: string, listener: (...args: any[]) => void): unknown;
  read(): unknown;
}

class BatchReader<T> {
  private error: unknown;
  private ended = false;
  private notify: (() => void) | undefined;

  constructor(private readonly stream: PausedStream) {
    const wake = () => this.notify?.();
    stream.on('readable', wake);
    for (const event of ['end', 'close']) {
      stream.on(event, () => {
        this.ended = true;
        wake();
      });
    }
    // The client emits errors without ending the stream; keep them for the next read.
    stream.on('error', (error: unknown) => {
      this.error ??= error;
      wake();
    });
  }

  async next(max: number): Promise<T[] | undefined> {
    for (;;) {
      if (this.error) throw this.error;
      const batch: T[] = [];
      let item: T | null;
      while (batch.length < max && (item = this.stream.read() as T | null) !== null) batch.push(item);
      if (batch.length > 0) return batch;
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => (this.notify = resolve));
      this.notify = undefined;
    }
  }
}

/**
 * A catch-up subscription to $all from a checkpoint that hands over one batch at a time and
 * waits for the handler. After an error it reports it and subscribes again from the last
 * position the handler finished, so nothing is skipped (a failed batch comes again).
 */
export class EventStoreDBSubscription {
  private running = false;
  private loop: Promise<void> | undefined;
  private current: AllStreamSubscription | undefined;
  private readonly pause = new WakeableSleep();

  constructor(
    private readonly client: EventStoreDBClient,
    private position: bigint,
    private readonly handler: SubscriptionHandler,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.pause.wake();
    const current = this.current;
    if (current) {
      await current.unsubscribe().catch(() => undefined);
      // Cancelling does not end the client's stream: destroy it so a waiting read returns.
      current.destroy();
    }
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      const subscription = this.client.subscribeToAll(
        { fromPosition: toReadPosition(this.position), filter: excludeSystemEvents() },
        { highWaterMark: BATCH_SIZE },
      );
      this.current = subscription;
      try {
        await this.follow(new BatchReader<AllStreamResolvedEvent>(subscription));
      } catch (error) {
        if (this.running) this.handler.onError?.(error);
      } finally {
        this.current = undefined;
        await subscription.unsubscribe().catch(() => undefined);
        subscription.destroy();
      }
      if (this.running) await this.pause.sleep(RETRY_MS);
    }
  }

  private async follow(reader: BatchReader<AllStreamResolvedEvent>): Promise<void> {
    while (this.running) {
      const resolved = await reader.next(BATCH_SIZE);
      if (!resolved) return;
      const events: RecordedEvent[] = [];
      for (const { event } of resolved) {
        // A subscription from a position may start at that very event; never deliver it twice.
        if (!event || event.position.commit <= this.position || isSystemEvent(event)) continue;
        events.push(toRecorded(event, event.position.commit));
      }
      if (events.length === 0 || !this.running) continue;
      await this.handler.onEvents(events);
      this.position = events[events.length - 1]!.position;
    }
  }
}
