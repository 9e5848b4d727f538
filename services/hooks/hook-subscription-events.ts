import type { DomainEvent } from '../../shared/commands/decider.ts';
import type { PublicEventType } from '../events/contract/public-event-types.ts';

/** Stream of one hook subscription: `hook_subscription-<subscription_id>`. */
export const hookSubscriptionStream = (subscriptionId: string) => `hook_subscription-${subscriptionId}`;

export type HookSubscriptionCreated = DomainEvent<
  'hook_subscription.created',
  {
    subscription_id: string;
    team_id: string;
    event: PublicEventType;
    /** Checked by shared/net/public-url.ts before the command; checked again at connect time. */
    target_url: string;
    api_key_id: string | null;
    created_at: string;
  }
>;

export type HookSubscriptionDeleted = DomainEvent<
  'hook_subscription.deleted',
  { subscription_id: string; team_id: string; deleted_at: string }
>;

export type HookSubscriptionEvent = HookSubscriptionCreated | HookSubscriptionDeleted;
