import { ApiError } from '../http/api-error.ts';
import type { Logger } from '../logging/logger.ts';
import type { EventStore } from '../event-store/event-store.ts';

/** What read-your-writes needs of the projection runner. */
export interface ReadModelCheckpoint {
  /** True once every read model has applied `position`; false after `timeoutMs` (the runner's default when omitted). */
  waitForPosition(position: bigint, timeoutMs?: number): Promise<boolean>;
}

/** How long a consumer waits for the read models before its event is offered again. */
export const CONSUMER_READ_MODELS_WAIT_MS = 10_000;

export const readModelsLagging = () =>
  new ApiError(503, 'Service busy; try again', { code: 'read_models_lagging', retryable: true });

/**
 * Read your writes, the one policy: a command's answer (or a consumer's next step) waits
 * until every read model has applied the command's last event, so the next GET sees it,
 * whichever event store runs and whichever API instance answers. When the read models
 * lag past the timeout the wait fails with 503 `read_models_lagging` (retryable): an API
 * caller retries, a consumer is offered the event again.
 */
export async function awaitReadModels(
  deps: { projections: ReadModelCheckpoint; logger?: Logger },
  position: bigint | undefined,
  { timeoutMs }: { timeoutMs?: number } = {},
): Promise<void> {
  if (position === undefined) return;
  if (await deps.projections.waitForPosition(position, timeoutMs)) return;
  deps.logger?.warn({ position: String(position) }, 'read models lag behind a command');
  throw readModelsLagging();
}

/**
 * A command whose answer and next read need only its own read model: with the PostgreSQL
 * store that read model is written inline, in the command's transaction
 * (../projections/inline-projections.ts), so the command waits for nothing; otherwise it
 * waits for the runner as awaitReadModels does. The other read models its events change
 * are read through awaitAsyncReadModels.
 */
export async function awaitOwnReadModel(
  deps: {
    projections: ReadModelCheckpoint;
    eventStore: Pick<EventStore, 'inlineReadModels'>;
    logger?: Logger;
  },
  readModel: string,
  position: bigint | undefined,
): Promise<void> {
  if (deps.eventStore.inlineReadModels.includes(readModel)) return;
  await awaitReadModels(deps, position);
}

/**
 * Read your writes on the reading side, for the asynchronous read models a command does
 * not wait for (the events feed, responses): the read waits until the runner has applied
 * every event committed before it began, whoever wrote it and on whichever instance.
 * Nothing to wait for when the runner is caught up; 503 `read_models_lagging` past the
 * timeout, as for a command.
 */
export async function awaitAsyncReadModels(deps: {
  projections: ReadModelCheckpoint;
  eventStore: Pick<EventStore, 'committedHeadPosition'>;
  logger?: Logger;
}): Promise<void> {
  await awaitReadModels(deps, await deps.eventStore.committedHeadPosition());
}
