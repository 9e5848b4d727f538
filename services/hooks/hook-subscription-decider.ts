import { DomainError, type Decider, unhandledEvent, unknownCommand } from '../../shared/commands/decider.ts';
import { assertStorable } from '../../shared/validation/safe-text.ts';
import { isPublicEventType, type PublicEventType } from '../events/contract/public-event-types.ts';
import type { HookSubscriptionEvent } from './hook-subscription-events.ts';

/**
 * A hook subscription: one event name, one target URL, active until deleted. Every
 * subscribe request is a new subscription (no merging of identical ones). Another team's
 * subscription is "not found", exactly like an unknown one.
 */
export type HookSubscriptionState =
  | { status: 'absent' }
  | { status: 'active' | 'deleted'; teamId: string; event: PublicEventType; targetUrl: string };

export type CreateHookSubscription = {
  type: 'CreateHookSubscription';
  data: {
    subscription_id: string;
    team_id: string;
    event: string;
    target_url: string;
    api_key_id: string | null;
  };
  metadata: { now: Date };
};

export type DeleteHookSubscription = {
  type: 'DeleteHookSubscription';
  data: { subscription_id: string; team_id: string };
  metadata: { now: Date };
};

export type HookSubscriptionCommand = CreateHookSubscription | DeleteHookSubscription;

function create(command: CreateHookSubscription, state: HookSubscriptionState): HookSubscriptionEvent[] {
  const { event, ...rest } = command.data;
  if (!isPublicEventType(event)) throw new DomainError('invalid_event', `Unknown event ${event}`);
  if (state.status !== 'absent') throw new DomainError('subscription_exists');
  return [
    {
      type: 'hook_subscription.created',
      data: { ...rest, event, created_at: command.metadata.now.toISOString() },
    },
  ];
}

function remove(command: DeleteHookSubscription, state: HookSubscriptionState): HookSubscriptionEvent[] {
  if (state.status !== 'active' || state.teamId !== command.data.team_id) {
    throw new DomainError('subscription_not_found');
  }
  return [
    {
      type: 'hook_subscription.deleted',
      data: { ...command.data, deleted_at: command.metadata.now.toISOString() },
    },
  ];
}

export const hookSubscriptionDecider: Decider<
  HookSubscriptionState,
  HookSubscriptionCommand,
  HookSubscriptionEvent
> = {
  initialState: () => ({ status: 'absent' }),
  evolve(state, event) {
    switch (event.type) {
      case 'hook_subscription.created':
        return {
          status: 'active',
          teamId: event.data.team_id,
          event: event.data.event,
          targetUrl: event.data.target_url,
        };
      case 'hook_subscription.deleted':
        return state.status === 'absent' ? state : { ...state, status: 'deleted' };
      default:
        return unhandledEvent(event, state);
    }
  },
  decide(command, state) {
    assertStorable(command.data);
    switch (command.type) {
      case 'CreateHookSubscription':
        return create(command, state);
      case 'DeleteHookSubscription':
        return remove(command, state);
      default:
        throw unknownCommand(command);
    }
  },
};
