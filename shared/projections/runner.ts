import { EventEmitter } from 'node:events';
import { inTransaction, type Pool } from '../db/pool.ts';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.ts';
import { withoutRowData } from '../logging/error-without-row-data.ts';
import type { Logger } from '../logging/logger.ts';
import { applyPastCheckpoint, wholeThenIsolating } from './apply-events.ts';
import { countParked, totalOf, type ParkedEvent } from './parked-events.ts';
import { liveTable, type Projection } from './projection.ts';
import { retryParked, type RetryFilter, type RetryOutcome } from './retry-parked.ts';
import { SharedCheckpointWait } from './shared-checkpoint-wait.ts';

/**
 * Runs projections from the global log. Each batch is applied and the checkpoint moved in
 * one transaction, with the checkpoint row locked first: a crash never applies an event
 * twice or loses one, and a second runner (or a rebuild swap) waits instead of racing.
 *
 * An event a projection cannot apply is parked for that projection (apply-events.ts): the
 * checkpoint moves past it, so that projection goes on, the others are not held, and
 * commands waiting to read their writes do not wait for it. The operator lists and retries
 * parked events (GET and POST /admin/v1/parked-events). Errors are logged without the row
 * data they may quote (error-without-row-data.ts).
 *
 * A runner that is not started (an API-only instance, SERVICE_ROLE=api) still answers
 * `waitForPosition`: it then waits on the checkpoints in the shared database, which the
 * worker's runner moves (shared-checkpoint-wait.ts).
 */
export class ProjectionRunner {
  private subscription: Subscription | undefined;
  private readonly progress = new EventEmitter();
  private position = 0n;
  private readonly shared: SharedCheckpointWait;

  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly projections: Projection[],
    private readonly logger?: Logger,
  ) {
    this.progress.setMaxListeners(0);
    this.shared = new SharedCheckpointWait(pool, () => this.projectionNames);
  }

  /** The lowest checkpoint of all projections: what every read model has seen. */
  get checkpoint(): bigint {
    return this.position;
  }

  /** The names of the projections this runner keeps (their checkpoint names). */
  get projectionNames(): string[] {
    return this.projections.map((projection) => projection.name);
  }

  async start(): Promise<void> {
    for (const projection of this.projections) {
      await this.pool.query('insert into checkpoints (name) values ($1) on conflict do nothing', [
        projection.name,
      ]);
    }
    this.position = await this.lowestCheckpoint();
    await this.warnOfParkedEvents();
    this.subscription = this.store.subscribeToAll(this.position, {
      onEvents: (events) => this.applyBatch(events),
      onError: (error) =>
        this.logger?.error(
          { err: withoutRowData(error, this.tableNames()) },
          'projection batch failed; retrying',
        ),
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
  }

  /** Resolves once every projection has applied the log up to `position` (read your writes). */
  waitForPosition(position: bigint, timeoutMs = 5000): Promise<boolean> {
    if (this.position >= position) return Promise.resolve(true);
    if (!this.subscription) return this.shared.waitFor(position, timeoutMs);
    return new Promise((resolve) => {
      const onProgress = () => {
        if (this.position < position) return;
        clearTimeout(timer);
        this.progress.off('moved', onProgress);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.progress.off('moved', onProgress);
        resolve(false);
      }, timeoutMs);
      this.progress.on('moved', onProgress);
    });
  }

  /**
   * All projections in one transaction: one commit per batch instead of one per projection.
   * When one of them cannot apply an event, the batch is applied again, parking what fails.
   * The commit does not wait for the disk flush: a crash can only lose read-model rows
   * together with their checkpoint, and those events are applied again after the restart
   * (the event log itself is written with full durability).
   */
  private async applyBatch(events: RecordedEvent[]): Promise<void> {
    const parked = await wholeThenIsolating((mode) =>
      inTransaction(this.pool, async (client) => {
        await client.query('set local synchronous_commit = off');
        // Every checkpoint locked in one statement (in name order, as every runner does) and
        // moved in one: two round trips per batch instead of two per projection.
        const locked = await client.query<{ name: string; position: string }>(
          'select name, position from checkpoints where name = any($1::text[]) order by name for update',
          [this.projectionNames],
        );
        const checkpoints = new Map(locked.rows.map((row) => [row.name, BigInt(row.position)]));
        const parkedNow: ParkedEvent[] = [];
        const moved: { name: string; position: bigint }[] = [];
        for (const projection of this.projections) {
          const { parked, movedTo } = await applyPastCheckpoint(client, projection, events, liveTable, {
            checkpointName: projection.name,
            checkpoint: checkpoints.get(projection.name) ?? 0n,
            mode,
          });
          parkedNow.push(...parked);
          if (movedTo !== undefined) moved.push({ name: projection.name, position: movedTo });
        }
        if (moved.length > 0) {
          await client.query(
            `update checkpoints c set position = m.position, updated_at = now()
             from unnest($1::text[], $2::bigint[]) as m(name, position) where c.name = m.name`,
            [moved.map((entry) => entry.name), moved.map((entry) => String(entry.position))],
          );
        }
        return parkedNow;
      }),
    );
    for (const entry of parked) this.warnParked(entry);
    this.position = events[events.length - 1]!.position;
    this.progress.emit('moved');
  }

  /**
   * Applies parked events again (after a fix), oldest first; an applied one leaves the
   * parked list, one that still fails stays with its newest error.
   */
  retryParked(filter: RetryFilter = {}): Promise<RetryOutcome[]> {
    return retryParked(this.pool, this.store, this.projections, filter);
  }

  private warnParked(entry: ParkedEvent): void {
    this.logger?.warn(
      {
        projection: entry.projection,
        event_id: entry.eventId,
        position: String(entry.position),
        event_type: entry.eventType,
        error_code: entry.error.code,
        error_message: entry.error.message,
      },
      'projection cannot apply an event: parked it and going on with the next events',
    );
  }

  private async warnOfParkedEvents(): Promise<void> {
    const counts = await countParked(this.pool, this.projectionNames);
    const total = totalOf(counts);
    if (total > 0) {
      this.logger?.warn(
        { parked_events: total, by_projection: counts },
        'parked events wait for a fix and a retry (GET /admin/v1/parked-events)',
      );
    }
  }

  private tableNames(): string[] {
    return this.projections.flatMap((projection) => projection.tables);
  }

  private lowestCheckpoint(): Promise<bigint> {
    return this.shared.lowest();
  }
}
