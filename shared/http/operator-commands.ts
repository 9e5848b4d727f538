import type { FastifyRequest } from 'fastify';
import { handleCommand, type CommandOutcome, type PipelineDeps } from '../commands/handle-command.ts';
import type { Decider, DomainEvent } from '../commands/decider.ts';
import { WrongExpectedRevisionError } from '../event-store/event-store.ts';
import { codedError } from './api-error.ts';
import { answerRefusal, registerDomainErrors, type DomainErrorTable } from './domain-errors.ts';
import { requestMetadata } from './request-metadata.ts';

/**
 * The operator API's table (teams, members, API keys, templates): a code's status, 400
 * for codes it does not list, the DomainError's details merged into the body. An
 * unstorable value refused by a decider (details.issues) answers in the form of a failed
 * validation.
 */
export const operatorErrors = registerDomainErrors('operator', {
  statuses: {
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
  },
  defaultStatus: 400,
  special: (error) =>
    error.code === 'invalid_body' && error.details?.['issues']
      ? codedError(400, 'invalid_body', 'Invalid request body', { details: error.details })
      : undefined,
  form: (error, status) => codedError(status, error.code, error.message, error.details),
});

/**
 * A failed operator command as its answer: a refusal by `table` (the operator table
 * unless a feature of the operator API has its own), a conflict that outlasted the
 * retries as 409 concurrent_modification.
 */
export function operatorApiError(error: unknown, table: DomainErrorTable = operatorErrors): unknown {
  if (error instanceof WrongExpectedRevisionError) {
    return codedError(409, 'concurrent_modification', 'Changed concurrently; try again', undefined, true);
  }
  return answerRefusal(table, error);
}

/** Runs a command of an operator route through the command pipeline, with the request's metadata. */
export async function runCommand<State, Command, Event extends DomainEvent>(
  context: PipelineDeps,
  request: FastifyRequest,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  table: DomainErrorTable = operatorErrors,
): Promise<CommandOutcome<State, Event>> {
  try {
    return await handleCommand(context, { streamId, decider, command, metadata: requestMetadata(request) });
  } catch (error) {
    throw operatorApiError(error, table);
  }
}
