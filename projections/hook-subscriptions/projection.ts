import { foldHookSubscription, HOOK_SUBSCRIPTION_EVENT_TYPES, type HookSubscriptionChange } from './fold.ts';
import { readModelProjection } from '../../shared/projections/projection.ts';

/**
 * hook_subscriptions: every subscription with its `active` flag (deliveries read the active
 * ones). The SQL half; ./fold.ts folds the events into row changes,
 * written here in log order.
 */
export const hookSubscriptionsProjection = readModelProjection<HookSubscriptionChange[]>({
  name: 'hook_subscriptions',
  tables: ['hook_subscriptions'],
  canHandle: HOOK_SUBSCRIPTION_EVENT_TYPES,
  load: async () => [],
  fold: foldHookSubscription,
  async persist(client, changes, table) {
    for (const change of changes) {
      if (change.kind === 'created') {
        const { row } = change;
        await client.query(
          `insert into ${table('hook_subscriptions')}
             (id, team_id, event, target_url, active, api_key_id, created_at, position)
           values ($1, $2, $3, $4, true, $5, $6, $7)
           on conflict (id) do nothing`,
          [row.id, row.team_id, row.event, row.target_url, row.api_key_id, row.created_at, row.position],
        );
      } else {
        await client.query(
          `update ${table('hook_subscriptions')} set active = false, deleted_at = $2 where id = $1`,
          [change.id, change.deleted_at],
        );
      }
    }
  },
});
