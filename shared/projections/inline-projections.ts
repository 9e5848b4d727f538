import type { PoolClient } from '../db/pool.ts';
import type { RecordedEvent } from '../event-store/event-store.ts';
import { handledBy, type Projection } from './projection.ts';

/**
 * Inline read models: with the PostgreSQL event store, the read model a command's next
 * read needs is written in the command's own transaction, right after its append
 * (PostgresEventStore.appendWithin), so it commits with the events and the command's
 * answer waits for no runner (shared/commands/read-your-writes.ts, `awaitOwnReadModel`).
 *
 * An inline projection stays in the asynchronous runner too: it is how EventStoreDB (which
 * cannot join a PostgreSQL transaction), a standalone append and a rebuild reach it. So
 * its fold skips an event it already has: each row keeps the stream revision it applied
 * last and takes only later ones (projections/onboardings-fold.ts). A row that is behind
 * its stream when a command applies inline (an upgrade, whose runner has not caught up
 * yet) first takes the earlier events it lacks, so skipping never loses one. All this
 * holds only for a read model whose every row follows one stream, whose commands hold
 * the stream's lock: a projection whose rows take events of several streams stays
 * asynchronous. The event store appends a stream's events in revision order to the log
 * as well (PostgresEventStore, IN_STREAM_ORDER), so the runner meets them in that order.
 *
 * A projection that fails inline fails the command (its transaction rolls back): the
 * asynchronous runner parks such an event instead, but a command must not commit events
 * its own read model does not show.
 */
export async function applyInline(
  tx: PoolClient,
  projections: readonly Projection[],
  appended: RecordedEvent[],
  readStream: (afterRevision: bigint) => Promise<RecordedEvent[]>,
): Promise<void> {
  const first = appended[0]!.revision;
  for (const projection of projections) {
    const handled = handledBy(projection, appended);
    if (handled.length === 0) continue;
    if (!projection.applyInline) throw new Error(`${projection.name} cannot be applied inline`);
    await projection.applyInline(tx, handled, async (afterRevision) =>
      handledBy(
        projection,
        (await readStream(afterRevision)).filter((event) => event.revision < first),
      ),
    );
  }
}
