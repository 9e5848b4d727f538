import type { PoolClient } from '../db/pool.ts';
import type { RecordedEvent } from '../event-store/event-store.ts';

/**
 * A projection turns events into rows of its own read-model tables. It must be a pure
 * function of the log: no wall clock, no random values, only event data (and the
 * event's recordedAt/position), so a rebuild gives the same rows as the live run.
 *
 * `table(name)` gives the physical, quoted name to write to: the live table, or its
 * shadow copy while `npm run rebuild` replays the log.
 */
export interface Projection {
  name: string;
  /** Tables this projection owns; rebuild recreates and swaps exactly these. */
  tables: string[];
  /**
   * The non-unique indexes of its tables that its own reads look rows up by (its `load`, an
   * update or delete by a column other than a unique key). A rebuild keeps these and the
   * unique ones on the shadow tables while it replays, and builds every other index once at
   * the end (./shadow-indexes.ts). Absent: none.
   */
  replayIndexes?: readonly string[];
  /**
   * The event types this projection applies: the runner hands it only those, so a
   * projection never filters for itself. Absent: every event of the log.
   */
  canHandle?: readonly string[];
  apply(client: PoolClient, events: RecordedEvent[], table: (name: string) => string): Promise<void>;
  /**
   * Present on a projection that can be applied inline (./inline-projections.ts): applies
   * one append's `events` (all of one stream, handled ones only) to the live tables, first
   * catching its rows up with the stream's earlier events they lack (`earlier`).
   */
  applyInline?(client: PoolClient, events: RecordedEvent[], earlier: EarlierEvents): Promise<void>;
}

/** The stream's events after `afterRevision` and before the append, that the projection handles. */
export type EarlierEvents = (afterRevision: bigint) => Promise<RecordedEvent[]>;

export const liveTable = (name: string) => `"${name}"`;

/** The events of `events` that `projection` declares it handles, in log order. */
export function handledBy(projection: Projection, events: RecordedEvent[]): RecordedEvent[] {
  if (projection.canHandle === undefined) return events;
  const types = new Set(projection.canHandle);
  return events.filter((event) => types.has(event.type));
}

/**
 * One read model, in the one style every projection of the service keeps: its SQL (`load`
 * the rows a batch touches, `persist` the changed ones) apart from its pure `fold`, which
 * evolves the batch's working set one event at a time with no I/O and no clock. A batch
 * costs one read and one write per table however many events it holds.
 *
 * `fold` may change the working set it is given and returns it: it is the batch's own
 * copy of the rows, so nothing outside the batch sees the change before `persist`.
 */
export interface ReadModel<Batch> {
  name: string;
  tables: string[];
  /** See Projection.replayIndexes. */
  replayIndexes?: readonly string[];
  canHandle: readonly string[];
  load(client: PoolClient, events: RecordedEvent[], table: (name: string) => string): Promise<Batch>;
  fold(batch: Batch, event: RecordedEvent): Batch;
  persist(client: PoolClient, batch: Batch, table: (name: string) => string): Promise<void>;
  /** A read model whose every row follows one stream may be applied inline (./inline-projections.ts). */
  inline?: {
    /** The stream revision the batch's row of `events`' stream has applied (-1: no row yet). */
    appliedRevision(batch: Batch, events: RecordedEvent[]): bigint;
    /** The batch of a stream's first events: no row of a new stream exists, so none is loaded. */
    emptyBatch(): Batch;
    /**
     * The events of `events` its rows do not have yet, read cheaply (their stream revisions
     * only): the runner meets most events after their command applied them inline, and
     * loads and writes nothing for those.
     */
    unapplied(
      client: PoolClient,
      events: RecordedEvent[],
      table: (name: string) => string,
    ): Promise<RecordedEvent[]>;
  };
}

/** The projection the runner applies: load, fold every (handled) event in log order, persist. */
export function readModelProjection<Batch>(model: ReadModel<Batch>): Projection {
  return {
    name: model.name,
    tables: model.tables,
    ...(model.replayIndexes && { replayIndexes: model.replayIndexes }),
    get canHandle() {
      return model.canHandle;
    },
    async apply(client, events, table) {
      // Only live tables are written inline: a rebuild's shadow copies have nothing to skip.
      if (model.inline && table === liveTable) events = await model.inline.unapplied(client, events, table);
      if (events.length === 0) return;
      let batch: Batch = await model.load(client, events, table);
      for (const event of events) batch = model.fold(batch, event);
      await model.persist(client, batch, table);
    },
    ...(model.inline && {
      async applyInline(client: PoolClient, events: RecordedEvent[], earlier: EarlierEvents) {
        const inline = model.inline!;
        const newStream = events[0]!.revision === 0n;
        let batch: Batch = newStream ? inline.emptyBatch() : await model.load(client, events, liveTable);
        const applied = newStream ? -1n : inline.appliedRevision(batch, events);
        // A row behind the stream (its earlier events still wait for the runner, as after
        // an upgrade) first catches up, so the row never skips them.
        const behind = applied < events[0]!.revision - 1n ? await earlier(applied) : [];
        if (behind.length > 0) batch = await model.load(client, [...behind, ...events], liveTable);
        for (const event of [...behind, ...events]) batch = model.fold(batch, event);
        await model.persist(client, batch, liveTable);
      },
    }),
  };
}

/**
 * The keys (by `keyOf`) of the streams whose first event is among `events`. A rebuild replays
 * the log in order into empty shadow tables, so no row of such a stream is stored yet: its
 * batch neither looks the row up nor upserts it, it writes it as new. Live tables never take
 * this shortcut (a row may be there already, written inline).
 */
export function streamsBegunIn(
  events: RecordedEvent[],
  keyOf: (event: RecordedEvent) => string,
): Set<string> {
  const begun = new Set<string>();
  for (const event of events) if (event.revision === 0n) begun.add(keyOf(event));
  return begun;
}
