import type { FastifyRequest } from 'fastify';
import {
  inCommandTransaction,
  runOnboardingCommand,
  type OnboardingOutcome,
  type RunOptions,
} from '../../shared/commands/onboarding-unit-of-work.ts';
import { DomainError } from '../../shared/domain/decider.ts';
import type {
  Onboarding,
  OnboardingCommand,
  OnboardingState,
} from '../../shared/domain/onboarding/onboarding-decider.ts';
import type { ServiceContext } from '../context.ts';
import { onboardingApiError } from './onboarding-errors.ts';
import { requestMetadata } from './request-metadata.ts';

/**
 * One onboarding command of an operator or portal route, in a transaction of its own
 * (shared/commands/onboarding-unit-of-work.ts), with the request's metadata: refusals
 * become the onboarding endpoints' error bodies (./onboarding-errors.ts), the answer waits
 * until the read models have its events (read your writes), and an onboarding that does
 * not exist throws `absent()` (the route's own 404).
 */
export async function runOnboardingRouteCommand(
  context: ServiceContext,
  request: FastifyRequest,
  onboardingId: string,
  build: (state: OnboardingState) => OnboardingCommand,
  absent: () => Error,
  options?: RunOptions,
): Promise<OnboardingOutcome & { state: Onboarding }> {
  let outcome: OnboardingOutcome;
  try {
    outcome = await inCommandTransaction(context, (tx) =>
      runOnboardingCommand(
        { pool: context.pool, eventStore: context.eventStore },
        tx,
        onboardingId,
        build,
        requestMetadata(request),
        options,
      ),
    );
  } catch (error) {
    if (error instanceof DomainError) throw onboardingApiError(error);
    throw error;
  }
  if (outcome.position !== undefined) await context.projections.waitForPosition(outcome.position);
  if (outcome.state.status === 'absent') throw absent();
  return outcome as OnboardingOutcome & { state: Onboarding };
}
