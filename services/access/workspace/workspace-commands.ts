import {
  decideWithin,
  inCommandTransaction,
  type CommandOutcome,
  type PipelineDeps,
  type StreamCommand,
} from '../../../shared/commands/handle-command.ts';
import type { DomainEvent } from '../../../shared/commands/decider.ts';
import type { PoolClient } from '../../../shared/db/pool.ts';
import type { FastifyRequest } from 'fastify';
import { memberMetadata } from '../../../shared/http/workspace-request.ts';
import { operatorApiError } from '../../../shared/http/operator-commands.ts';
import { workspaceErrors } from './workspace-errors.ts';

/**
 * Runs the workspace's commands of one request in one transaction of the command pipeline
 * (several streams at once, e.g. sign-up: team, member, account and session together):
 * `work` calls `decide` for each command and may write operational rows through `tx`.
 * A refusal answers through the workspace's error table.
 */
export async function inWorkspaceTransaction<T>(
  context: PipelineDeps,
  work: (
    decide: <State, Command, Event extends DomainEvent>(
      spec: StreamCommand<State, Command, Event>,
    ) => Promise<CommandOutcome<State, Event>>,
    tx: PoolClient,
  ) => Promise<T>,
): Promise<T> {
  try {
    return await inCommandTransaction(context, (tx) => work((spec) => decideWithin(context, tx, spec), tx));
  } catch (error) {
    throw operatorApiError(error, workspaceErrors);
  }
}

/**
 * One command of a workspace request in its own transaction (see inWorkspaceTransaction):
 * the acting member is the actor of its metadata (null where nobody is signed in yet).
 */
export function memberCommand<State, Command, Event extends DomainEvent>(
  context: PipelineDeps,
  request: Pick<FastifyRequest, 'id'>,
  actorMemberId: string | null,
  spec: Omit<StreamCommand<State, Command, Event>, 'metadata'>,
): Promise<CommandOutcome<State, Event>> {
  return inWorkspaceTransaction(context, (decide) =>
    decide({ ...spec, metadata: memberMetadata(request, actorMemberId) }),
  );
}

/** The largest defined position, for read-your-writes after several commands. */
export function lastPosition(...outcomes: Array<{ position: bigint | undefined }>): bigint | undefined {
  return outcomes.reduce<bigint | undefined>(
    (max, { position }) => (position !== undefined && (max === undefined || position > max) ? position : max),
    undefined,
  );
}
