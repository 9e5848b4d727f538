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
import { memberMetadata, type SignedInMember } from '../../../shared/http/workspace-request.ts';
import { teamDecider, type TeamCommand, type TeamState } from '../team-decider.ts';
import { teamStreamId, type TeamEvent } from '../team-events.ts';
import { accountDecider, type AccountCommand, type AccountState } from './account-decider.ts';
import { accountStreamId, type AccountEvent } from './account-events.ts';
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

/** What a command of one stream names: the command and the operational rows it writes. */
type CommandOf<State, Command, Event extends DomainEvent> = Pick<
  StreamCommand<State, Command, Event>,
  'command' | 'writeRows'
>;

/** A command on the member's own account; the member is the actor. */
export function accountCommand(
  context: PipelineDeps,
  request: Pick<FastifyRequest, 'id'>,
  memberId: string,
  spec: CommandOf<AccountState, AccountCommand, AccountEvent>,
) {
  return memberCommand(context, request, memberId, {
    streamId: accountStreamId(memberId),
    decider: accountDecider,
    ...spec,
  });
}

/** A command on the signed-in member's team; the member is the actor. */
export function teamCommand(
  context: PipelineDeps,
  request: Pick<FastifyRequest, 'id'>,
  session: Pick<SignedInMember, 'teamId' | 'memberId'>,
  spec: CommandOf<TeamState, TeamCommand, TeamEvent>,
) {
  return memberCommand(context, request, session.memberId, {
    streamId: teamStreamId(session.teamId),
    decider: teamDecider,
    ...spec,
  });
}

/** The largest defined position, for read-your-writes after several commands. */
export function lastPosition(...outcomes: Array<{ position: bigint | undefined }>): bigint | undefined {
  return outcomes.reduce<bigint | undefined>(
    (max, { position }) => (position !== undefined && (max === undefined || position > max) ? position : max),
    undefined,
  );
}
