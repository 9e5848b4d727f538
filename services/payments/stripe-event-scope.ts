import { randomUUID } from 'node:crypto';
import type { Platform } from '../../shared/app-deps.ts';
import { DomainError } from '../../shared/commands/decider.ts';
import type { CommandMetadata } from '../../shared/commands/handle-command.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import { isUuid } from '../../shared/ids/uuid.ts';
import { runOnboardingCommand, type Onboarding } from '../onboardings/index.ts';
import type { PaymentTarget } from './payment-references.ts';

/**
 * What every handler of a Stripe event works with: the platform parts, the transaction
 * that also claimed the event id (./handled-stripe-events.ts), the event, and the one way
 * an event reaches an onboarding (`onOnboarding`).
 */

export type StripeEventDeps = Pick<Platform, 'pool' | 'eventStore' | 'clock'>;

/** The envelope of a verified Stripe event, as the handlers need it. */
export interface StripeEventEnvelope {
  id: string;
  type: string;
  /** The connected account the event happened on; null for the platform's own. */
  account: string | null;
  object: unknown;
}

export interface StripeEventScope {
  deps: StripeEventDeps;
  tx: PoolClient;
  event: StripeEventEnvelope;
  /** The delivery's request id (logs and correlation). */
  requestId: string;
  now: Date;
}

/** What a handler answers: the outcome recorded for the event. */
export type Outcome = string;

type OnboardingCommand = Awaited<ReturnType<Parameters<typeof runOnboardingCommand>[3]>>;

/** A command's metadata: Stripe's event id is its cause, so the timeline can say "Stripe". */
export function stripeCommandMetadata(scope: StripeEventScope): CommandMetadata {
  return {
    command_id: randomUUID(),
    request_id: scope.requestId,
    idempotency_key: null,
    api_key_id: null,
    causation_id: scope.event.id,
    correlation_id: scope.requestId,
    actor: 'stripe',
    stripe_event_id: scope.event.id,
    stripe_event_type: scope.event.type,
  };
}

/** Thrown by a command's builder: the event changes nothing, for this reason (its outcome). */
class Skipped extends Error {
  constructor(readonly outcome: Outcome) {
    super(outcome);
  }
}

/**
 * Runs the command `build` makes on the onboarding `target` names, in the scope's
 * transaction. Nothing happens, and the outcome says why, when the onboarding is unknown
 * or another team's, or the decider refuses (`refused:<code>`, never an error: Stripe
 * would only send it again). `recorded` when events were appended, `already_recorded`
 * when the decider found the fact recorded before.
 */
export async function onOnboarding(
  scope: StripeEventScope,
  target: Pick<PaymentTarget, 'onboarding_id' | 'team_id'>,
  build: (onboarding: Onboarding) => OnboardingCommand,
): Promise<Outcome> {
  if (!isUuid(target.onboarding_id) || !isUuid(target.team_id)) return 'unknown_onboarding';
  try {
    const outcome = await runOnboardingCommand(
      scope.deps,
      scope.tx,
      target.onboarding_id,
      (state) => {
        if (state.status === 'absent') throw new Skipped('unknown_onboarding');
        if (state.team_id !== target.team_id) throw new Skipped('foreign_team');
        return build(state);
      },
      stripeCommandMetadata(scope),
    );
    return outcome.events.length > 0 ? 'recorded' : 'already_recorded';
  } catch (error) {
    if (error instanceof Skipped) return error.outcome;
    if (error instanceof DomainError) return `refused:${error.code}`;
    throw error;
  }
}

/** The field's `config` of the onboarding's form; undefined for an unknown field. */
export function fieldConfigOf(onboarding: Onboarding, fieldId: string): Record<string, unknown> | undefined {
  for (const step of onboarding.snapshot.steps) {
    const field = step.fields.find((candidate) => candidate.id === fieldId);
    if (field) return field.config;
  }
  return undefined;
}
