import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { HookSubscriptionEvent } from '../../services/hooks/hook-subscription-events.ts';

/**
 * The pure half of the hook_subscriptions read model (./projection.ts
 * holds its SQL): each event becomes the row change it makes, in log order.
 */

export const HOOK_SUBSCRIPTION_EVENT_TYPES = [
  'hook_subscription.created',
  'hook_subscription.deleted',
] as const;

export type HookSubscriptionChange =
  | {
      kind: 'created';
      row: {
        id: string;
        team_id: string;
        event: string;
        target_url: string;
        api_key_id: string | null;
        created_at: string;
        position: string;
      };
    }
  | { kind: 'deleted'; id: string; deleted_at: string };

export function foldHookSubscription(
  changes: HookSubscriptionChange[],
  recorded: RecordedEvent,
): HookSubscriptionChange[] {
  const event = { type: recorded.type, data: recorded.data } as HookSubscriptionEvent;
  switch (event.type) {
    case 'hook_subscription.created': {
      const { data } = event;
      changes.push({
        kind: 'created',
        row: {
          id: data.subscription_id,
          team_id: data.team_id,
          event: data.event,
          target_url: data.target_url,
          api_key_id: data.api_key_id,
          created_at: data.created_at,
          position: String(recorded.position),
        },
      });
      break;
    }
    case 'hook_subscription.deleted':
      changes.push({ kind: 'deleted', id: event.data.subscription_id, deleted_at: event.data.deleted_at });
      break;
    default:
      break;
  }
  return changes;
}
