import type { PoolClient } from '../../shared/db/pool.ts';
import type { CommandMetadata } from '../../shared/commands/handle-command.ts';
import { runNewLinkCommand, type CommandDeps } from './onboarding-commands.ts';
import { teamFacts } from '../../projections/teams/queries.ts';
import type { OnboardingOutcome } from './onboarding-unit-of-work.ts';

export interface ReopenOnboardingInput {
  team_id: string;
  onboarding_id: string;
  /** Exactly 6 digits, or undefined to carry the previous PIN over. */
  pin?: string;
  /** Why the team reopens it, for the client (only in the sealed email). */
  reason?: string;
  /** Approved answers (field ids) the client may change again; answers not approved always open. */
  unlock_approved?: string[];
}

/**
 * Reopen a completed, cancelled or expired onboarding (the workspace): a new client link
 * and its 'reopened' email (with the team's reason) queued in the same transaction, like a
 * send, under the team's send lock so the monthly count cannot be passed by a concurrent
 * send or reopen. What opens again is the decider's (decision 0077). The new token is
 * returned once (the member never needs it; the client gets it by email).
 */
export async function reopenOnboarding(
  deps: CommandDeps,
  tx: PoolClient,
  input: ReopenOnboardingInput,
  now: Date,
  metadata: CommandMetadata,
): Promise<OnboardingOutcome> {
  const team = await teamFacts(tx, input.team_id);
  if (!team) throw new Error(`Team ${input.team_id} of a signed-in member has no read model row`);
  return runNewLinkCommand(deps, tx, { ...input, team }, now, metadata, {
    inviteEvent: 'onboarding_reopened',
    command: (link) => ({
      type: 'ReopenOnboarding',
      data: { ...link, unlock_approved: input.unlock_approved ?? [] },
      metadata: { now },
    }),
    reason: input.reason?.trim() || null,
  });
}
