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

const SELECT = `select id, event, target_url, created_at, api_key_id from hook_subscriptions`;

interface Row {
  id: string;
  event: string;
  target_url: string;
  created_at: Date;
  api_key_id: string | null;
}

const view = (row: Row): HookSubscriptionView => ({
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
  const { rows } = await context.pool.query<Row>(
    `${SELECT} where team_id = $1 and active order by created_at desc, id`,
    [teamId],
  );
  return rows.map(view);
}

/** One active subscription of the team, or undefined. */
export async function readHookSubscription(
  context: Pick<Platform, 'pool'>,
  teamId: string,
  id: string,
): Promise<HookSubscriptionView | undefined> {
  const { rows } = await context.pool.query<Row>(`${SELECT} where team_id = $1 and id = $2 and active`, [
    teamId,
    id,
  ]);
  return rows[0] ? view(rows[0]) : undefined;
}
