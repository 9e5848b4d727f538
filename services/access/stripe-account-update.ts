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
import {
  accountStateOf,
  NOT_CONNECTED,
  stripeAccountSettings,
  type StripeAccountFacts,
  type StripeAccountOfTeam,
} from './stripe-account-state.ts';

/** What recording an account's state needs; with `tx` the command joins that transaction. */
export type StripeAccountUpdateDeps = Pick<Platform, 'pool' | 'eventStore' | 'clock'> & { tx?: PoolClient };

export interface StripeAccountUpdate extends StripeAccountFacts {
  accountId: string;
}

type AccountSettings = ReturnType<typeof stripeAccountSettings>;

/**
 * UpdateTeam with the account settings `change` makes of the team's current account, read
 * on its stream (not the read model, which may lag); `{}` changes nothing. Answers the
 * position of the event (undefined when nothing was recorded) and the account afterwards.
 */
export async function changeStripeAccountOfTeam(
  deps: StripeAccountUpdateDeps,
  teamId: string,
  change: (current: StripeAccountOfTeam) => AccountSettings | Record<string, never>,
  metadata: Partial<CommandMetadata> = {},
): Promise<{ position: bigint | undefined; account: StripeAccountOfTeam }> {
  const spec: StreamCommand<TeamState, TeamCommand, TeamEvent> = {
    streamId: teamStreamId(teamId),
    decider: teamDecider,
    command: (state) => ({
      type: 'UpdateTeam',
      data: { changes: state.team ? change(state.team) : {} },
      metadata: { now: deps.clock.now() },
    }),
    metadata: { command_id: randomUUID(), causation_id: null, correlation_id: null, ...metadata },
  };
  const outcome = deps.tx ? await decideWithin(deps, deps.tx, spec) : await handleCommand(deps, spec);
  const team = outcome.state.team;
  const account = team
    ? { stripe_account_id: team.stripe_account_id, stripe_account_state: team.stripe_account_state }
    : NOT_CONNECTED;
  return { position: outcome.position, account };
}

/** The team's new state when it still has this account; nothing otherwise. */
export const accountStateChange =
  (update: StripeAccountUpdate) =>
  (current: StripeAccountOfTeam): AccountSettings | Record<string, never> =>
    current.stripe_account_id === update.accountId
      ? stripeAccountSettings(update.accountId, accountStateOf(update))
      : {};

/**
 * What Stripe now says of a connected account (account.updated): the team that has it gets
 * the account's state, and payments_connected follows. Nothing when no team has the
 * account, the team no longer has it (checked on its stream), or nothing changed. Answers
 * the team and the position of its event (undefined when nothing was recorded), for
 * read-your-writes.
 */
export async function recordStripeAccountUpdate(
  deps: StripeAccountUpdateDeps,
  update: StripeAccountUpdate,
  metadata: Partial<CommandMetadata> = {},
): Promise<{ teamId: string | null; position: bigint | undefined }> {
  const teamId = await teamOfStripeAccount(deps.tx ?? deps.pool, update.accountId);
  if (teamId === null) return { teamId, position: undefined };
  const { position } = await changeStripeAccountOfTeam(deps, teamId, accountStateChange(update), metadata);
  return { teamId, position };
}
