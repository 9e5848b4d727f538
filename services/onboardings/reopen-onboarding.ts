import { randomUUID } from 'node:crypto';
import type { PoolClient } from '../../shared/db/pool.ts';
import type { CommandMetadata } from '../../shared/commands/handle-command.ts';
import { hashPin, issueClientToken } from './link-secrets.ts';
import { inviteEffect, type CommandDeps } from './onboarding-commands.ts';
import { teamFacts } from '../../projections/teams/queries.ts';
import { clientFacts, lockTeamSends, sendFacts } from './onboarding-facts.ts';
import { runOnboardingCommand, type OnboardingOutcome } from './onboarding-unit-of-work.ts';

export interface ReopenOnboardingInput {
  team_id: string;
  onboarding_id: string;
  /** Exactly 6 digits, or undefined to carry the previous PIN over. */
  pin?: string;
}

/**
 * Reopen a completed, cancelled or expired onboarding (the workspace): a new client link
 * and its invite queued in the same transaction, like a send, under the team's send lock
 * so the monthly count cannot be passed by a concurrent send or reopen. The new token is
 * returned once (the member never needs it; the client gets it by email).
 */
export async function reopenOnboarding(
  deps: CommandDeps,
  tx: PoolClient,
  input: ReopenOnboardingInput,
  now: Date,
  metadata: CommandMetadata,
): Promise<OnboardingOutcome> {
  const pin = input.pin === undefined ? null : await hashPin(input.pin);
  const { token, hash } = issueClientToken();
  const team = await teamFacts(tx, input.team_id);
  if (!team) throw new Error(`Team ${input.team_id} of a signed-in member has no read model row`);
  await lockTeamSends(tx, team.id);
  let client = { status: 'missing', name: null, email: null } as Awaited<ReturnType<typeof clientFacts>>;
  return runOnboardingCommand(
    deps,
    tx,
    input.onboarding_id,
    async (state) => {
      const clientId = state.status === 'absent' ? null : state.client_id;
      if (clientId) client = await clientFacts(tx, team.id, clientId);
      return {
        type: 'ReopenOnboarding',
        data: {
          team_id: team.id,
          token_hash: hash,
          pin,
          facts: await sendFacts(tx, team, client, clientId ?? randomUUID(), now),
        },
        metadata: { now },
      };
    },
    metadata,
    {
      effects: inviteEffect('onboarding_reopened', {
        publicUrl: deps.publicUrl,
        team,
        token,
        now,
        client: () => client,
      }),
    },
  );
}
