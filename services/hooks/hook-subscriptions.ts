import { randomUUID } from 'node:crypto';
import {
  handleCommand,
  type CommandMetadata,
  type PipelineDeps,
} from '../../shared/commands/handle-command.ts';
import { awaitReadModels } from '../../shared/commands/read-your-writes.ts';
import type { Platform } from '../../shared/app-deps.ts';
import type { PublicEventType } from '../events/contract/public-event-types.ts';
import { hookSubscriptionDecider } from './hook-subscription-decider.ts';
import { hookSubscriptionStream } from './hook-subscription-events.ts';
import {
  teamHookSubscription,
  teamHookSubscriptions,
  type HookSubscriptionRow,
} from '../../projections/hook-subscriptions/queries.ts';

/*
 * Hook subscriptions' commands and reads, shared by the public API
 * (./hook-subscriptions-routes.ts, the API key as actor) and the workspace
 * (./workspace-hook-routes.ts, the member as actor). The callers check the event and the
 * target URL first (the same rules for both).
 */

type Deps = PipelineDeps & Pick<Platform, 'clock' | 'projections' | 'logger'>;

export interface HookSubscriptionView {
  id: string;
  event: string;
  target_url: string;
  created_at: string;
  created_by: 'api_key' | 'workspace';
}

/** Creates an active subscription; answers its id once the read models have it. */
export async function createHookSubscription(
  context: Deps,
  subscription: { teamId: string; event: PublicEventType; targetUrl: string; apiKeyId: string | null },
  metadata: CommandMetadata,
): Promise<string> {
  const id = randomUUID();
  const result = await handleCommand(context, {
    streamId: hookSubscriptionStream(id),
    decider: hookSubscriptionDecider,
    command: {
      type: 'CreateHookSubscription',
      data: {
        subscription_id: id,
        team_id: subscription.teamId,
        event: subscription.event,
        target_url: subscription.targetUrl,
        api_key_id: subscription.apiKeyId,
      },
      metadata: { now: context.clock.now() },
    },
    metadata,
  });
  await awaitReadModels(context, result.position);
  return id;
}

/** Deletes the team's subscription (DomainError subscription_not_found for an unknown, another team's or deleted one). */
export async function deleteHookSubscription(
  context: Deps,
  teamId: string,
  subscriptionId: string,
  metadata: CommandMetadata,
): Promise<void> {
  const result = await handleCommand(context, {
    streamId: hookSubscriptionStream(subscriptionId),
    decider: hookSubscriptionDecider,
    command: {
      type: 'DeleteHookSubscription',
      data: { subscription_id: subscriptionId, team_id: teamId },
      metadata: { now: context.clock.now() },
    },
    metadata,
  });
  await awaitReadModels(context, result.position);
}

const view = (row: HookSubscriptionRow): HookSubscriptionView => ({
  id: row.id,
  event: row.event,
  target_url: row.target_url,
  created_at: row.created_at.toISOString(),
  created_by: row.api_key_id ? 'api_key' : 'workspace',
});

/** The team's active subscriptions, newest first. */
export async function listHookSubscriptions(
  context: Pick<Platform, 'pool'>,
  teamId: string,
): Promise<HookSubscriptionView[]> {
  return (await teamHookSubscriptions(context.pool, teamId)).map(view);
}

/** One active subscription of the team, or undefined. */
export async function readHookSubscription(
  context: Pick<Platform, 'pool'>,
  teamId: string,
  id: string,
): Promise<HookSubscriptionView | undefined> {
  const row = await teamHookSubscription(context.pool, teamId, id);
  return row ? view(row) : undefined;
}
