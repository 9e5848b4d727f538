import { randomUUID } from 'node:crypto';
import type { Platform } from '../../shared/app-deps.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import {
  decideWithin,
  handleCommand,
  type CommandMetadata,
  type StreamCommand,
} from '../../shared/commands/handle-command.ts';
import { teamOfStripeAccount } from '../../projections/teams/queries.ts';
import { teamDecider, type TeamCommand, type TeamState } from './team-decider.ts';
import { teamStreamId, type TeamEvent } from './team-events.ts';
import { accountStateOf, stripeAccountSettings, type StripeAccountFacts } from './stripe-account-state.ts';

/** What recording an account's state needs; with `tx` the command joins that transaction. */
export type StripeAccountUpdateDeps = Pick<Platform, 'pool' | 'eventStore' | 'clock'> & { tx?: PoolClient };

export interface StripeAccountUpdate extends StripeAccountFacts {
  accountId: string;
}

/**
 * What Stripe now says of a connected account (account.updated, or a retrieve after the
 * account link): the team that has it gets the account's state, and payments_connected
 * follows. Nothing when no team has the account, the team no longer has it (checked on
 * its stream, not only the read model), or nothing changed. Answers the team and the
 * position of its event (undefined when nothing was recorded), for read-your-writes.
 */
export async function recordStripeAccountUpdate(
  deps: StripeAccountUpdateDeps,
  update: StripeAccountUpdate,
  metadata: Partial<CommandMetadata> = {},
): Promise<{ teamId: string | null; position: bigint | undefined }> {
  const teamId = await teamOfStripeAccount(deps.tx ?? deps.pool, update.accountId);
  if (teamId === null) return { teamId, position: undefined };
  const spec: StreamCommand<TeamState, TeamCommand, TeamEvent> = {
    streamId: teamStreamId(teamId),
    decider: teamDecider,
    command: (state) => ({
      type: 'UpdateTeam',
      data: {
        changes:
          state.team?.stripe_account_id === update.accountId
            ? stripeAccountSettings(update.accountId, accountStateOf(update))
            : {},
      },
      metadata: { now: deps.clock.now() },
    }),
    metadata: { command_id: randomUUID(), causation_id: null, correlation_id: null, ...metadata },
  };
  const outcome = deps.tx ? await decideWithin(deps, deps.tx, spec) : await handleCommand(deps, spec);
  return { teamId, position: outcome.position };
}
