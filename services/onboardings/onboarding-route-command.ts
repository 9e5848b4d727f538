import type { FastifyRequest } from 'fastify';
import { inCommandTransaction } from '../../shared/commands/handle-command.ts';
import { runOnboardingCommand, type OnboardingOutcome, type RunOptions } from './onboarding-unit-of-work.ts';
import { awaitReadModels } from '../../shared/commands/read-your-writes.ts';
import { answeringRefusals } from '../../shared/http/domain-errors.ts';
import type { Onboarding, OnboardingCommand, OnboardingState } from './decider/index.ts';
import type { OnboardingEvent } from './onboarding-events.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { onboardingErrors } from './onboarding-errors.ts';
import { requestMetadata } from '../../shared/http/request-metadata.ts';
import type { CommandMetadata } from '../../shared/commands/handle-command.ts';

/** What one onboarding command of a route uses. */
export type OnboardingRouteCommandDeps = Pick<Platform, 'pool' | 'eventStore' | 'projections' | 'logger'>;

/**
 * One onboarding command of an operator or portal route, in a transaction of its own
 * (the command pipeline: shared/commands/handle-command.ts), with the request's metadata
 * (or the given one: a workspace route names the member as actor):
 * refusals become the onboarding endpoints' error bodies (./onboarding-errors.ts), the
 * answer waits until the read models have its events (shared/commands/read-your-writes.ts),
 * and an onboarding that does not exist throws `absent()` (the route's own 404).
 */
export async function runOnboardingRouteCommand(
  context: OnboardingRouteCommandDeps,
  request: FastifyRequest,
  onboardingId: string,
  build: (state: OnboardingState) => OnboardingCommand | Promise<OnboardingCommand>,
  absent: () => Error,
  options?: RunOptions,
  metadata: CommandMetadata = requestMetadata(request),
): Promise<OnboardingOutcome & { state: Onboarding }> {
  const outcome = await answeringRefusals(onboardingErrors, () =>
    inCommandTransaction(context, (tx) =>
      runOnboardingCommand(context, tx, onboardingId, build, metadata, options),
    ),
  );
  await awaitReadModels(context, outcome.position);
  if (outcome.state.status === 'absent') throw absent();
  return outcome as OnboardingOutcome & { state: Onboarding };
}

/** The event of `type` a command decided (a command that decides none is a bug of the decider). */
export function decidedEvent<T extends OnboardingEvent['type']>(
  outcome: OnboardingOutcome,
  type: T,
  command: OnboardingCommand['type'],
): Extract<OnboardingEvent, { type: T }> {
  const event = outcome.events.find((one) => one.type === type);
  if (event?.type !== type) throw new Error(`${command} decided no ${type}`);
  return event as Extract<OnboardingEvent, { type: T }>;
}
