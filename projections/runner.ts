import { EventEmitter } from 'node:events';
import { inTransaction, type Pool, type PoolClient } from '../shared/db/pool.ts';
import type { EventStore, RecordedEvent, Subscription } from '../shared/event-store/event-store.ts';
import type { Logger } from '../shared/logger.ts';
import { liveTable, type Projection } from './projection.ts';

/**
 * Runs projections from the global log. Each batch is applied and the checkpoint moved in
 * one transaction, with the checkpoint row locked first: a crash never applies an event
 * twice or loses one, and a second runner (or a rebuild swap) waits instead of racing.
 */
export class ProjectionRunner {
  private subscription: Subscription | undefined;
  private readonly progress = new EventEmitter();
  private position = 0n;

  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly projections: Projection[],
    private readonly logger?: Logger,
  ) {
    this.progress.setMaxListeners(0);
  }

  /** The lowest checkpoint of all projections: what every read model has seen. */
  get checkpoint(): bigint {
    return this.position;
  }

  async start(): Promise<void> {
    for (const projection of this.projections) {
      await this.pool.query('insert into checkpoints (name) values ($1) on conflict do nothing', [
        projection.name,
      ]);
    }
    this.position = await this.lowestCheckpoint();
    this.subscription = this.store.subscribeToAll(this.position, {
      onEvents: (events) => this.applyBatch(events),
      onError: (error) => this.logger?.error({ err: error }, 'projection batch failed; retrying'),
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
  }

  /** Resolves once every projection has applied the log up to `position` (read your writes). */
  waitForPosition(position: bigint, timeoutMs = 5000): Promise<boolean> {
    if (this.position >= position) return Promise.resolve(true);
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
   * The commit does not wait for the disk flush: a crash can only lose read-model rows
   * together with their checkpoint, and those events are applied again after the restart
   * (the event log itself is written with full durability).
   */
  private async applyBatch(events: RecordedEvent[]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query('set local synchronous_commit = off');
      for (const projection of this.projections) {
        await applyInTransaction(client, projection, events, liveTable);
      }
    });
    this.position = events[events.length - 1]!.position;
    this.progress.emit('moved');
  }

  private async lowestCheckpoint(): Promise<bigint> {
    const names = this.projections.map((projection) => projection.name);
    const result = await this.pool.query<{ position: string | null }>(
      'select min(position) as position from checkpoints where name = any($1)',
      [names],
    );
    return BigInt(result.rows[0]?.position ?? 0);
  }
}

/** Applies the events after the projection's stored checkpoint, and moves it, in one transaction. */
export function applyToProjection(
  pool: Pool,
  projection: Projection,
  events: RecordedEvent[],
  table: (name: string) => string,
  checkpointName = projection.name,
): Promise<void> {
  return inTransaction(pool, (client) =>
    applyInTransaction(client, projection, events, table, checkpointName),
  );
}

/** The same, inside a transaction the caller holds open. */
export async function applyInTransaction(
  client: PoolClient,
  projection: Projection,
  events: RecordedEvent[],
  table: (name: string) => string,
  checkpointName = projection.name,
): Promise<void> {
  const locked = await client.query<{ position: string }>(
    'select position from checkpoints where name = $1 for update',
    [checkpointName],
  );
  const checkpoint = BigInt(locked.rows[0]?.position ?? 0);
  const fresh = events.filter((event) => event.position > checkpoint);
  if (fresh.length === 0) return;
  await projection.apply(client, fresh, table);
  await client.query(
    `insert into checkpoints (name, position, updated_at) values ($1, $2, now())
     on conflict (name) do update set position = excluded.position, updated_at = excluded.updated_at`,
    [checkpointName, String(fresh[fresh.length - 1]!.position)],
  );
}
