import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Pool, PoolClient } from '../db/pool.ts';
import { backoffMs } from '../subscriptions/pause.ts';
import { LogFollower, type LogWindow } from './log-follower.ts';
import { applyInline } from '../projections/inline-projections.ts';
import type { Projection } from '../projections/projection.ts';
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

type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

const CHANNEL = 'event_store_appended';
/** Positions are xid * 65536 + index in the append (see infra/migrations/001_event_store.sql). */
const MAX_EVENTS_PER_APPEND = 65536;
/** Highest position a reader may see: everything below the oldest transaction in flight. */
const VISIBLE_LIMIT = 'pg_snapshot_xmin(pg_current_snapshot())::text::bigint * 65536';

/**
 * The expected revision held, but the stream's last event came from a transaction with a
 * larger id (IN_STREAM_ORDER): a conflict like any other for a command, which runs again.
 */
export class StreamOrderConflict extends WrongExpectedRevisionError {}

/**
 * The stream's last event was written by a transaction with a larger id than this one (it
 * took the stream's lock later but its id earlier, and committed first): appending now
 * would put this event before that one in the global log. The append fails as a conflict
 * instead, and its command runs again under a new, larger transaction id, so every
 * stream's events reach the log's readers in revision order (projections that keep a
 * revision per row rely on it: projections/onboardings-fold.ts).
 */
const IN_STREAM_ORDER = `coalesce((select e.position from events e where e.stream_id = $1
                                    order by e.revision desc limit 1), -1)
                          < (pg_current_xact_id()::text::bigint + 1) * 65536`;

const STREAM_UPSERT: Record<'any' | 'no_stream' | 'exact', string> = {
  any: `insert into event_streams (stream_id, revision) values ($1, $2 - 1)
        on conflict (stream_id) do update set revision = event_streams.revision + $2
        where ${IN_STREAM_ORDER}
        returning revision`,
  no_stream: `insert into event_streams (stream_id, revision) values ($1, $2 - 1)
              on conflict (stream_id) do nothing
              returning revision`,
  exact: `update event_streams set revision = revision + $2
          where stream_id = $1 and revision = $7 and ${IN_STREAM_ORDER}
          returning revision`,
};

/**
 * One statement: move the stream revision, insert the events. With `notifyAtCommit` it
 * also queues a NOTIFY, delivered when the caller's transaction commits. A NOTIFY takes a
 * cluster-wide lock while its transaction commits, which serialises concurrent appends;
 * so appends that commit on their own notify after the commit instead (see `append`).
 */
function appendSql(mode: keyof typeof STREAM_UPSERT, notifyAtCommit: boolean): string {
  return `
    with stream as (${STREAM_UPSERT[mode]}),
    base as (
      -- Further appends in the same transaction continue after its earlier ones.
      select coalesce(max(position) + 1, x.id * 65536) as first
      from (select pg_current_xact_id()::text::bigint as id) x
      left join events on position >= x.id * 65536 and position < (x.id + 1) * 65536
      group by x.id
    ),
    appended as (
      insert into events (position, transaction_id, event_id, stream_id, revision, type, data, metadata)
      select base.first + e.ord - 1, pg_current_xact_id(),
             e.id, $1, stream.revision - $2 + e.ord, e.type, e.data, e.metadata
      from stream, base,
           unnest($3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[]) with ordinality as e(id, type, data, metadata, ord)
      returning position, revision, recorded_at
    ),
    notified as (select pg_notify('${CHANNEL}', '') where ${notifyAtCommit} and exists (select 1 from appended))
    select max(position) as position, max(revision) as revision, count(*) as count,
           max(recorded_at) as recorded_at
    from appended left join notified on true`;
}

/** Statements whose caller wakes the followers itself once the append committed (announceAppend). */
const APPEND_NOTIFY_AFTER_COMMIT = {
  any: appendSql('any', false),
  no_stream: appendSql('no_stream', false),
  exact: appendSql('exact', false),
};
/** Statements that queue the NOTIFY themselves, delivered when the caller's transaction commits. */
const APPEND_NOTIFY_AT_COMMIT = {
  any: appendSql('any', true),
  no_stream: appendSql('no_stream', true),
  exact: appendSql('exact', true),
};

const COLUMNS = 'position, event_id, stream_id, revision, type, data, metadata, recorded_at';

interface EventRow {
  position: string;
  event_id: string;
  stream_id: string;
  revision: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: Date;
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: BigInt(row.revision),
    position: BigInt(row.position),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
  };
}

export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  private listener: pg.Client | undefined;
  /** The LISTEN connection is wanted (some follower was started and the store is open). */
  private listening = false;
  private listenAttempt: pg.Client | undefined;
  private listenFailures = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly followers = new Set<LogFollower>();
  private readonly readsInFlight = new Map<string, Promise<LogWindow>>();
  private notifying = false;
  private notifyAgain = false;

  /**
   * @param inlineProjections read models applied in the transaction of every
   *   `appendWithin` (the command pipeline's appends): see shared/projections/inline-projections.ts.
   */
  constructor(
    private readonly pool: Pool,
    private readonly url: string,
    private readonly inlineProjections: readonly Projection[] = [],
  ) {}

  get inlineReadModels(): readonly string[] {
    return this.inlineProjections.map((projection) => projection.name);
  }

  /**
   * Commits on its own; followers are woken after the commit (see `announceAppend`). An
   * append that met a later transaction's events on its stream (IN_STREAM_ORDER) is sent
   * again at once: it is its own transaction, so the next try has a newer id.
   */
  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    let result: AppendResult | undefined;
    for (let attempt = 1; result === undefined; attempt++) {
      try {
        result = await this.appendStatement(
          this.pool,
          streamId,
          events,
          expected,
          APPEND_NOTIFY_AFTER_COMMIT,
        );
      } catch (error) {
        if (!(error instanceof StreamOrderConflict) || attempt >= 10) throw error;
      }
    }
    this.announceAppend();
    return result;
  }

  /**
   * Appends through a given connection, so a caller can append inside its own open
   * transaction (together with operational rows, or to test late commits).
   */
  appendWith(
    executor: Queryable,
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    { notifyAtCommit = true }: { notifyAtCommit?: boolean } = {},
  ): Promise<AppendResult> {
    // Without notifyAtCommit the caller calls afterCommit() once its transaction committed.
    return this.appendStatement(
      executor,
      streamId,
      events,
      expected,
      notifyAtCommit ? APPEND_NOTIFY_AT_COMMIT : APPEND_NOTIFY_AFTER_COMMIT,
    );
  }

  /**
   * Joins the caller's transaction without a NOTIFY at its commit (a cluster-wide lock
   * that would serialise every command's commit): the caller calls `afterCommit`. The
   * inline read models get the appended events in the same transaction.
   */
  async appendWithin(
    transaction: PoolClient,
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const appended = await this.appendStatement(
      transaction,
      streamId,
      events,
      expected,
      APPEND_NOTIFY_AFTER_COMMIT,
    );
    if (this.inlineProjections.length > 0) {
      await applyInline(transaction, this.inlineProjections, appended.recorded(), (afterRevision) =>
        this.readStreamWith(transaction, streamId, { afterRevision }),
      );
    }
    return { position: appended.position, nextExpectedRevision: appended.nextExpectedRevision };
  }

  readStreamWithin(
    transaction: PoolClient,
    streamId: string,
    options?: ReadStreamOptions,
  ): Promise<RecordedEvent[]> {
    return this.readStreamWith(transaction, streamId, options);
  }

  afterCommit(): void {
    this.announceAppend();
  }

  private async appendStatement(
    executor: Queryable,
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    statements: typeof APPEND_NOTIFY_AFTER_COMMIT,
  ): Promise<AppendResult & { recorded: () => RecordedEvent[] }> {
    if (events.length === 0 || events.length > MAX_EVENTS_PER_APPEND) {
      throw new RangeError(`An append takes 1 to ${MAX_EVENTS_PER_APPEND} events`);
    }
    const mode = typeof expected === 'bigint' ? 'exact' : expected;
    const ids = events.map((event) => event.id ?? randomUUID());
    const data = events.map((event) => JSON.stringify(event.data ?? null));
    const metadata = events.map((event) => JSON.stringify(event.metadata ?? {}));
    const params: unknown[] = [
      streamId,
      events.length,
      ids,
      events.map((event) => event.type),
      data,
      metadata,
    ];
    if (mode === 'exact') params.push(String(expected));
    // Named (prepared once per connection): planning the statement costs more than running it.
    const result = await executor.query<{
      position: string | null;
      revision: string | null;
      recorded_at: Date;
    }>({
      name: `event_store_append_${mode}_${statements === APPEND_NOTIFY_AFTER_COMMIT ? 'notify_after' : 'notify_at_commit'}`,
      text: statements[mode],
      values: params,
    });
    const row = result.rows[0];
    if (!row?.position || row.revision === null) {
      const actual = await this.currentRevision(executor, streamId);
      if (expected === 'any' || expected === actual)
        throw new StreamOrderConflict(streamId, expected, actual);
      throw new WrongExpectedRevisionError(streamId, expected, actual);
    }
    const position = BigInt(row.position);
    const revision = BigInt(row.revision);
    const before = BigInt(events.length - 1);
    // As a reader of the log gets them (positions and revisions are consecutive in one
    // append); built only for the inline read models that need them.
    const recorded = () =>
      events.map((event, index) => ({
        id: ids[index]!,
        streamId,
        revision: revision - before + BigInt(index),
        position: position - before + BigInt(index),
        type: event.type,
        data: JSON.parse(data[index]!) as unknown,
        metadata: JSON.parse(metadata[index]!) as Record<string, unknown>,
        recordedAt: row.recorded_at,
      }));
    return { position, nextExpectedRevision: revision, recorded };
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.readStreamWith(this.pool, streamId, options);
  }

  /** Reads through a given connection: a command holding a transaction needs no second one. */
  async readStreamWith(
    executor: Queryable,
    streamId: string,
    { afterRevision = -1n }: ReadStreamOptions = {},
  ): Promise<RecordedEvent[]> {
    const result = await executor.query<EventRow>({
      name: 'event_store_read_stream',
      text: `select ${COLUMNS} from events where stream_id = $1 and revision > $2 order by revision`,
      values: [streamId, String(afterRevision)],
    });
    return result.rows.map(toRecorded);
  }

  async readSinceSnapshot(
    streamId: string,
    version: string,
    transaction?: PoolClient,
  ): Promise<{ snapshot: StreamSnapshot | undefined; events: RecordedEvent[] }> {
    // The snapshot's row comes first (its position is null), then the events after it.
    const result = await (transaction ?? this.pool).query<EventRow & { snapshot: boolean }>({
      name: 'event_store_read_since_snapshot',
      text: `with snapshot as (
               select revision, state from stream_snapshots where stream_id = $1 and version = $2
             )
             select null::bigint as position, null::uuid as event_id, $1 as stream_id, revision,
                    null::text as type, state as data, null::jsonb as metadata,
                    null::timestamptz as recorded_at, true as snapshot
             from snapshot
             union all
             select ${COLUMNS}, false
             from events
             where stream_id = $1 and revision > coalesce((select revision from snapshot), -1)
             order by snapshot desc, revision`,
      values: [streamId, version],
    });
    const first = result.rows[0];
    const snapshot = first?.snapshot ? { revision: BigInt(first.revision), state: first.data } : undefined;
    return { snapshot, events: (snapshot ? result.rows.slice(1) : result.rows).map(toRecorded) };
  }

  /** In the append's transaction; a newer snapshot already there is kept. */
  async saveSnapshot(
    transaction: PoolClient,
    streamId: string,
    version: string,
    snapshot: StreamSnapshot,
  ): Promise<void> {
    await transaction.query({
      name: 'event_store_save_snapshot',
      text: `insert into stream_snapshots (stream_id, version, revision, state) values ($1, $2, $3, $4)
             on conflict (stream_id) do update
               set version = excluded.version, revision = excluded.revision, state = excluded.state,
                   taken_at = now()
               where stream_snapshots.revision < excluded.revision or stream_snapshots.version <> excluded.version`,
      values: [streamId, version, String(snapshot.revision), JSON.stringify(snapshot.state)],
    });
  }

  async readAll({ after, limit }: ReadAllOptions): Promise<RecordedEvent[]> {
    // The LIMIT sits inside so the planner always walks the primary key in order and stops
    // after `limit` rows; the visible rows of that window are a prefix of it, because
    // positions grow with transaction ids.
    const result = await this.pool.query<EventRow>({
      name: 'event_store_read_all',
      text: `select ${COLUMNS} from (
         select ${COLUMNS} from events where position > $1 order by position limit $2
       ) window_rows
       where position < ${VISIBLE_LIMIT}
       order by position`,
      values: [String(after), limit],
    });
    return result.rows.map(toRecorded);
  }

  /**
   * readAll for a live follower: the visible events of the log window after `after`, and
   * whether the window holds committed events that are not visible yet (an older
   * transaction is still in flight): only then may events appear without a notification,
   * so only then does a follower poll.
   */
  async readWindow({ after, limit }: ReadAllOptions): Promise<LogWindow> {
    // As readAll's window; the rows past the visible limit come back without their data.
    const result = await this.pool.query<EventRow & { visible: boolean }>({
      name: 'event_store_read_window',
      text: `select position, event_id, stream_id, revision, type, recorded_at, visible,
              case when visible then data end as data, case when visible then metadata end as metadata
       from (
         select ${COLUMNS}, position < ${VISIBLE_LIMIT} as visible
         from events where position > $1 order by position limit $2
       ) window_rows
       order by position`,
      values: [String(after), limit],
    });
    const visible = result.rows.filter((row) => row.visible);
    return { events: visible.map(toRecorded), hidden: visible.length < result.rows.length };
  }

  async headPosition(): Promise<bigint> {
    const result = await this.pool.query<{ position: string | null }>(
      `select max(position) as position from events where position < ${VISIBLE_LIMIT}`,
    );
    return BigInt(result.rows[0]?.position ?? 0);
  }

  async committedHeadPosition(): Promise<bigint> {
    const result = await this.pool.query<{ position: string | null }>(
      'select max(position) as position from events',
    );
    return BigInt(result.rows[0]?.position ?? 0);
  }

  subscribeToAll(after: bigint, handler: SubscriptionHandler): Subscription {
    const follower = new LogFollower((options) => this.readAllShared(options), after, handler);
    this.followers.add(follower);
    this.startListening();
    follower.start();
    return {
      stop: async () => {
        this.followers.delete(follower);
        await follower.stop();
      },
    };
  }

  /**
   * readAll for the followers of this process: one NOTIFY wakes them all at once, mostly at
   * the same position, so reads of the same window already in flight are shared (one query
   * instead of one per follower). Each sharer gets its own copy of the events, so no
   * follower's handler sees another's changes.
   */
  private readAllShared(options: ReadAllOptions): Promise<LogWindow> {
    const key = `${options.after}:${options.limit}`;
    let read = this.readsInFlight.get(key);
    if (!read) {
      read = this.readWindow(options).finally(() => this.readsInFlight.delete(key));
      this.readsInFlight.set(key, read);
    }
    // Every copy is made before any follower's handler runs (promise reactions run in order).
    return read.then(({ events, hidden }) => ({ events: structuredClone(events), hidden }));
  }

  async ping(): Promise<void> {
    await this.pool.query('select 1 from events limit 1');
  }

  async close(): Promise<void> {
    await Promise.all([...this.followers].map((follower) => follower.stop()));
    this.followers.clear();
    this.listening = false;
    clearTimeout(this.reconnectTimer);
    const clients = [this.listener, this.listenAttempt];
    this.listener = undefined;
    this.listenAttempt = undefined;
    await Promise.all(clients.map((client) => client?.end().catch(() => undefined)));
  }

  private async currentRevision(executor: Queryable, streamId: string): Promise<bigint | 'no_stream'> {
    const result = await executor.query<{ revision: string }>(
      'select revision from event_streams where stream_id = $1',
      [streamId],
    );
    const revision = result.rows[0]?.revision;
    return revision === undefined ? 'no_stream' : BigInt(revision);
  }

  /**
   * After an append committed: wake this process's followers at once, and tell other
   * processes with one NOTIFY per burst of appends (at most one in flight, one queued).
   */
  private announceAppend(): void {
    this.wakeFollowers();
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    this.notifying = true;
    const send = (): Promise<void> =>
      this.pool.query(`select pg_notify('${CHANNEL}', '')`).then(
        () => {
          if (!this.notifyAgain) return;
          this.notifyAgain = false;
          return send();
        },
        () => undefined,
      );
    void send().finally(() => (this.notifying = false));
  }

  /**
   * One LISTEN connection per store wakes every follower when an append commits. When it
   * breaks (PostgreSQL restarted, the backend terminated) it is made again with a growing
   * pause, until the store closes; meanwhile the followers poll. Once it listens again,
   * every follower is woken: appends made while no one listened sent no notification.
   */
  private startListening(): void {
    if (this.listening) return;
    this.listening = true;
    this.connectListener();
  }

  private connectListener(): void {
    this.reconnectTimer = undefined;
    if (!this.listening) return;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000 });
    this.listenAttempt = client;
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.listener = undefined;
      if (this.listenAttempt === client) this.listenAttempt = undefined;
      void client.end().catch(() => undefined);
      if (!this.listening) return;
      this.listenFailures++;
      this.reconnectTimer = setTimeout(() => this.connectListener(), backoffMs(this.listenFailures, 5000));
      this.reconnectTimer.unref();
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', () => this.wakeFollowers());
    client
      .connect()
      .then(() => client.query(`listen ${CHANNEL}`))
      .then(() => {
        if (lost || !this.listening) return;
        this.listenAttempt = undefined;
        this.listener = client;
        this.listenFailures = 0;
        this.wakeFollowers();
      }, onLost);
  }

  private wakeFollowers(): void {
    for (const follower of this.followers) follower.wake();
  }
}
