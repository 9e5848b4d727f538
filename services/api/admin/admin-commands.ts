import type { FastifyRequest } from 'fastify';
import { handleCommand, type CommandResult } from '../../../shared/commands/handle-command.ts';
import { DomainError, type Decider, type DomainEvent } from '../../../shared/domain/decider.ts';
import { WrongExpectedRevisionError } from '../../../shared/event-store/event-store.ts';
import { ApiError, codedError } from '../../../shared/http/api-error.ts';
import type { ServiceContext } from '../../context.ts';
import { requestMetadata } from '../request-metadata.ts';

/** HTTP status of each domain error code of the operator API. */
const STATUS_OF: Record<string, number> = {
  team_not_found: 404,
  member_not_found: 404,
  api_key_not_found: 404,
  template_not_found: 404,
  team_exists: 409,
  member_exists: 409,
  api_key_exists: 409,
  template_exists: 409,
  key_limit_reached: 409,
  duplicate_id: 400,
  scopes_required: 400,
};

export function toApiError(error: unknown): unknown {
  if (error instanceof DomainError && error.code === 'invalid_body' && error.details?.['issues']) {
    // An unstorable value refused by a decider: the form of a failed validation.
    return codedError(400, 'invalid_body', 'Invalid request body', { details: error.details });
  }
  if (error instanceof DomainError) {
    return codedError(STATUS_OF[error.code] ?? 400, error.code, error.message, error.details);
  }
  if (error instanceof WrongExpectedRevisionError) {
    return codedError(409, 'concurrent_modification', 'Changed concurrently; try again', undefined, true);
  }
  return error;
}

/** Runs a command from an operator route; domain errors become the operator API's error bodies. */
export async function runCommand<State, Command, Event extends DomainEvent>(
  context: ServiceContext,
  request: FastifyRequest,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
): Promise<CommandResult<State, Event>> {
  try {
    return await handleCommand(context.eventStore, streamId, decider, command, requestMetadata(request));
  } catch (error) {
    throw toApiError(error);
  }
}

/**
 * Read your writes: answers only once every read model has applied `position`, so the
 * next request (an API call with a just-revoked key, a GET of a new template) sees it.
 * `strict`: answer 503 (retryable) when the read models lag longer than the timeout.
 */
export async function awaitReadModels(
  context: ServiceContext,
  position: bigint | undefined,
  { strict = false } = {},
): Promise<void> {
  if (position === undefined) return;
  if (await context.projections.waitForPosition(position)) return;
  context.logger.warn({ position: String(position) }, 'read models lag behind a command');
  if (strict) {
    throw new ApiError(503, 'Service busy; try again', { code: 'read_models_lagging', retryable: true });
  }
}

export const nowIso = (context: ServiceContext) => context.clock.now().toISOString();
