import type { HookSubscriptionEvent } from '../shared/domain/hook-subscription/hook-subscription-events.ts';
import type { Projection } from './projection.ts';

/** hook_subscriptions: every subscription with its `active` flag (deliveries read the active ones). */
export const hookSubscriptionsProjection: Projection = {
  name: 'hook_subscriptions',
  tables: ['hook_subscriptions'],
  async apply(client, events, table) {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as HookSubscriptionEvent;
      switch (event.type) {
        case 'hook_subscription.created':
          await client.query(
            `insert into ${table('hook_subscriptions')}
               (id, team_id, event, target_url, active, api_key_id, created_at, position)
             values ($1, $2, $3, $4, true, $5, $6, $7)
             on conflict (id) do nothing`,
            [
              event.data.subscription_id,
              event.data.team_id,
              event.data.event,
              event.data.target_url,
              event.data.api_key_id,
              event.data.created_at,
              String(recorded.position),
            ],
          );
          break;
        case 'hook_subscription.deleted':
          await client.query(
            `update ${table('hook_subscriptions')} set active = false, deleted_at = $2 where id = $1`,
            [event.data.subscription_id, event.data.deleted_at],
          );
          break;
        default:
          break;
      }
    }
  },
};
