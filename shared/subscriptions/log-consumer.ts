import type { Clock } from '../clock.ts';
import { isConnectionError } from '../db/connection-errors.ts';
import { inTransaction, type Pool } from '../db/pool.ts';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.ts';
import type { Logger } from '../logging/logger.ts';
import {
  assertConsumerName,
  consumerCheckpoint,
  wants,
  type EventConsumer,
  type RunningConsumer,
} from './event-consumer.ts';
import { CONNECTION_RETRY_MAX_MS, Pause, backoffMs } from './pause.ts';
import { PositionWatch } from './position-watch.ts';
import { handleOnce } from './processed-events.ts';
import { TrailingWrite } from './trailing-write.ts';

const PASSED_OVER_WRITE_MS = 200;

export interface LogConsumerDeps {
  pool: Pool;
  eventStore: EventStore;
  logger?: Logger;
  /** The service clock: when each event was handled (processed_events, retention). */
  clock?: Clock;
}

/**
 * Adapter (a): the consumer reads the event log itself (catch-up, then live) from its
 * checkpoint `consumer:<name>` in `checkpoints`. Each wanted event is handled in its own
 * transaction that locks the checkpoint row, inserts the dedupe row, runs the handler and
 * moves the checkpoint: a crash never loses an event or applies it twice, and a second
 * instance of the service running the same consumer waits on the lock and then skips
 * what the first one did.
 */
export async function startLogConsumer(
  consumer: EventConsumer,
  { pool, eventStore, logger, clock }: LogConsumerDeps,
): Promise<RunningConsumer> {
  assertConsumerName(consumer.name);
  const checkpoint = consumerCheckpoint(consumer.name);
  await pool.query('insert into checkpoints (name) values ($1) on conflict do nothing', [checkpoint]);
  const stored = await pool.query<{ position: string }>('select position from checkpoints where name = $1', [
    checkpoint,
  ]);
  const watch = new PositionWatch(BigInt(stored.rows[0]?.position ?? 0));
  const pause = new Pause();
  const log = logger?.child({ consumer: consumer.name, adapter: 'log' });
  let failures = 0;
  let stopping = false;

  /** Handles one event unless the checkpoint (moved by any instance) is already past it. */
  const handleEvent = (event: RecordedEvent) =>
    inTransaction(pool, async (tx) => {
      const locked = await tx.query<{ position: string }>(
        'select position from checkpoints where name = $1 for update',
        [checkpoint],
      );
      if (BigInt(locked.rows[0]?.position ?? 0) >= event.position) return;
      await handleOnce(tx, consumer, event, clock);
      await tx.query('update checkpoints set position = $2, updated_at = now() where name = $1', [
        checkpoint,
        String(event.position),
      ]);
    });

  const onEvents = async (events: RecordedEvent[]) => {
    for (const event of events) {
      if (stopping) return;
      if (!wants(consumer, event.type)) continue;
      try {
        await handleEvent(event);
        failures = 0;
      } catch (error) {
        failures++;
        // The database unreachable says nothing about the event: try again soon after it is back.
        const connectionLost = isConnectionError(error);
        const wait = backoffMs(failures, connectionLost ? CONNECTION_RETRY_MAX_MS : undefined);
        if (connectionLost) {
          log?.warn(
            { err: error, eventId: event.id, failures, retryInMs: wait },
            'consumer lost its database connection; the event is offered again',
          );
        } else {
          log?.error(
            { err: error, eventId: event.id, type: event.type, failures, retryInMs: wait },
            'consumer failed to handle an event; it is offered again',
          );
        }
        await pause.sleep(wait);
        // The subscription reads again from the start of this batch; done events are skipped.
        throw error;
      }
      watch.advance(event.position);
    }
    // Events passed over at the end of the batch: move the checkpoint past them too.
    const last = events[events.length - 1];
    if (last && !stopping && last.position > watch.position) {
      watch.advance(last.position);
      passedOver.schedule();
    }
  };

  /**
   * The stored checkpoint follows events passed over at most every PASSED_OVER_WRITE_MS
   * (and at stop): a consumer wants few of the log's events, and one write per batch of
   * others would cost a round trip per append. Reading them again after a crash only
   * passes them over again; handled events move the checkpoint in their own transaction.
   */
  const passedOver = new TrailingWrite(PASSED_OVER_WRITE_MS, async () => {
    await pool.query(
      `update checkpoints set position = greatest(position, $2), updated_at = now() where name = $1`,
      [checkpoint, String(watch.position)],
    );
  });

  const subscription: Subscription = eventStore.subscribeToAll(watch.position, {
    onEvents,
    // Failures are logged with their event in onEvents; this is reading the log.
    onError: (error) => {
      if (failures > 0) return;
      if (isConnectionError(error)) log?.warn('consumer cannot reach the database; retrying');
      else log?.error({ err: error }, 'consumer could not read the event log; retrying');
    },
  });

  return {
    name: consumer.name,
    adapter: 'log',
    // Caught up includes the stored checkpoint (a drain leaves none behind).
    caughtUp: async (position, timeoutMs = 30_000) => {
      if (!(await watch.waitFor(position, timeoutMs))) return false;
      await passedOver.flush();
      return true;
    },
    async stop() {
      stopping = true;
      pause.interrupt();
      await subscription.stop();
      await passedOver.flush().catch(() => undefined);
      watch.release();
    },
  };
}
