import type { EventStore, RecordedEvent } from '../event-store/event-store.ts';

/** What a replay reads ahead of its slowest projection, in batches. */
const BATCHES_AHEAD = 2;

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)));
  promise.catch(() => undefined); // the error surfaces where it is awaited
  return { promise, resolve, reject };
}

/**
 * The batches of a rebuild's replay, read once from the log and shared by every projection,
 * each projection going through them at its own pace: none waits at the end of every batch
 * for the slowest, so PostgreSQL works on the slowest one's batch while the others go on
 * with the next. The log is read at most two batches ahead of the slowest projection: those
 * two are what the replay holds in memory, as when every projection waited for the others.
 * A batch is forgotten once every projection has applied it.
 */
export class ReplayWindow {
  private readonly batches = new Map<number, Deferred<RecordedEvent[]>>();
  /** Per batch not yet applied by every projection: how many have, and who waits for the rest. */
  private readonly applied = new Map<number, { count: number; all: Deferred<void> }>();
  /** The last batch every projection has applied (they apply in log order, so all before it too). */
  private appliedThrough = -1;
  private failure: unknown;
  private failed = false;

  constructor(
    private readonly store: EventStore,
    /** The last position to replay: the head of the log when the replay began. */
    private readonly head: bigint,
    private readonly batchSize: number,
    /** How many projections take every batch. */
    private readonly readers: number,
    /** Told of each batch every projection has applied, in log order. */
    private readonly onApplied: (batch: RecordedEvent[]) => void,
  ) {
    void this.read();
  }

  /** The batch at `index` (an empty one past the end of the replay). */
  batch(index: number): Promise<RecordedEvent[]> {
    return this.slot(index).promise;
  }

  /** One projection has applied the batch at `index`. */
  appliedBatch(index: number, batch: RecordedEvent[]): void {
    const entry = this.appliedAt(index);
    if (++entry.count < this.readers) return;
    this.batches.delete(index);
    this.applied.delete(index);
    this.appliedThrough = index;
    this.onApplied(batch);
    entry.all.resolve();
  }

  /** Stops the replay: every projection waiting for a batch gets `error`. */
  fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.failure = error;
    for (const slot of this.batches.values()) slot.reject(error);
    for (const entry of this.applied.values()) entry.all.reject(error);
  }

  private async read(): Promise<void> {
    let after = 0n;
    try {
      for (let index = 0; ; index++) {
        if (index - BATCHES_AHEAD > this.appliedThrough) {
          await this.appliedAt(index - BATCHES_AHEAD).all.promise;
        }
        const done = index > 0 && after >= this.head;
        const events = done ? [] : await this.store.readAll({ after, limit: this.batchSize });
        this.slot(index).resolve(events);
        if (events.length === 0) return;
        after = events[events.length - 1]!.position;
      }
    } catch (error) {
      this.fail(error);
    }
  }

  private slot(index: number): Deferred<RecordedEvent[]> {
    let slot = this.batches.get(index);
    if (!slot) {
      slot = deferred();
      if (this.failed) slot.reject(this.failure);
      this.batches.set(index, slot);
    }
    return slot;
  }

  private appliedAt(index: number) {
    let entry = this.applied.get(index);
    if (!entry) {
      entry = { count: 0, all: deferred() };
      if (this.failed) entry.all.reject(this.failure);
      this.applied.set(index, entry);
    }
    return entry;
  }
}
