import type { PoolClient } from '../db/pool.ts';

/**
 * The event store port. Two adapters implement it (PostgreSQL and EventStoreDB) and one
 * contract suite (test/contract/event-store.contract.ts) holds both to it.
 *
 * Positions are bigints: they order the global log, have gaps, and only grow.
 */
export type ExpectedRevision = 'no_stream' | 'any' | bigint;

export type EventMetadata = Record<string, unknown>;

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** Event id (uuid); generated when omitted. Consumers deduplicate on it. */
  id?: string;
  type: Type;
  data: Data;
  metadata?: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = any> {
  id: string;
  streamId: string;
  /** 0-based position of the event inside its stream. */
  revision: bigint;
  /** Position in the global log. */
  position: bigint;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  recordedAt: Date;
}

export interface ReadStreamOptions {
  /** Only the events after this revision (those of a snapshot are not read again). */
  afterRevision?: bigint;
}

/** The folded state of a stream at `revision` (shared/commands/stream-snapshots.ts). */
export interface StreamSnapshot {
  revision: bigint;
  state: unknown;
}

export interface AppendResult {
  /** Revision of the last appended event: the expected revision of the next append. */
  nextExpectedRevision: bigint;
  /** Global position of the last appended event (for read-your-writes). */
  position: bigint;
}

export interface ReadAllOptions {
  /** Read events strictly after this position; 0n (or -1n) reads from the start. */
  after: bigint;
  limit: number;
}

export interface SubscriptionHandler {
  /** Receives each batch in position order; the subscription waits for it to settle. */
  onEvents(events: RecordedEvent[]): Promise<void>;
  onError?(error: unknown): void;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb';
  /**
   * The read models `appendWithin` writes in the append's own transaction (inline:
   * shared/projections/inline-projections.ts); none with EventStoreDB.
   */
  readonly inlineReadModels: readonly string[];
  append(streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /**
   * Appends as part of the caller's open PostgreSQL transaction. The PostgreSQL adapter
   * joins it, so the events commit or roll back with the caller's operational rows. The
   * EventStoreDB adapter cannot: it appends at once, so a caller makes this the last step
   * before its commit. Once the transaction has committed, the caller calls `afterCommit`.
   */
  appendWithin(
    transaction: PoolClient,
    streamId: string,
    events: NewEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult>;
  /** `readStream` through the caller's transaction: it sees the transaction's own appends. */
  readStreamWithin(
    transaction: PoolClient,
    streamId: string,
    options?: ReadStreamOptions,
  ): Promise<RecordedEvent[]>;
  /** Tells the log's followers that a transaction holding `appendWithin` appends has committed. */
  afterCommit(): void;
  /** Events of one stream in revision order; empty when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /**
   * The stream's snapshot of decider `version` and the events after it (all of them without
   * one), through `transaction` when given, in one read. Never a snapshot with EventStoreDB,
   * which keeps none (docs/decisions/0049-snapshots-of-long-streams.md).
   */
  readSinceSnapshot(
    streamId: string,
    version: string,
    transaction?: PoolClient,
  ): Promise<{ snapshot: StreamSnapshot | undefined; events: RecordedEvent[] }>;
  /** Keeps a snapshot in the caller's transaction (PostgreSQL); a no-op with EventStoreDB. */
  saveSnapshot(
    transaction: PoolClient,
    streamId: string,
    version: string,
    snapshot: StreamSnapshot,
  ): Promise<void>;
  /** One batch of the global log, in position order. */
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Position of the newest event a reader can see now (0n when empty). */
  headPosition(): Promise<bigint>;
  /**
   * Position of the newest committed event, also one a reader cannot see yet because an
   * older transaction is still in flight (0n when empty). A drain waits up to it: stopping
   * at headPosition() would leave out events that are already committed; they become
   * visible once the older transactions end, so waiting for them is safe.
   */
  committedHeadPosition(): Promise<bigint>;
  /** Catches up from `after`, then follows live; batches arrive one at a time, in order. */
  subscribeToAll(after: bigint, handler: SubscriptionHandler): Subscription;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}
