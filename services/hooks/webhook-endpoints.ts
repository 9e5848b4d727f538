import { randomUUID } from 'node:crypto';
import { DomainError } from '../../shared/commands/decider.ts';
import { handleCommand, type CommandMetadata } from '../../shared/commands/handle-command.ts';
import { awaitReadModels } from '../../shared/commands/read-your-writes.ts';
import { operatorApiError } from '../../shared/http/operator-commands.ts';
import { checkTargetUrl } from '../../shared/net/public-url.ts';
import type { Platform } from '../../shared/app-deps.ts';
import type { Db } from '../../shared/work-queue/work-queue.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import { isPlan } from '../access/contract/plans.ts';
import { teamById } from '../../projections/teams/queries.ts';
import {
  teamWebhookEndpoint,
  teamWebhookEndpoints,
  type WebhookEndpointRow,
} from '../../projections/webhook-endpoints/queries.ts';
import { signedDeliveryErrors } from './signed-delivery-errors.ts';
import { insertEndpointSecret, rotateEndpointSecretRow } from './signing-secrets.ts';
import { overlapEnd } from './signing.ts';
import type { WebhookEventType } from './contract/webhook-event-types.ts';
import {
  webhookEndpointDecider,
  webhookEndpointStream,
  type WebhookEndpointCommand,
} from './webhook-endpoint-decider.ts';

/**
 * Signed webhook endpoints, as operations on one team: the operator API
 * (./webhook-endpoints-routes.ts) and the workspace call these with the team id and the
 * command metadata (the acting member there). Each change is a command; the endpoint's
 * secret is written in the same transaction (webhook_endpoint_secrets) and returned only
 * by create and rotate.
 */

export type WebhookEndpointDeps = Pick<
  Platform,
  'pool' | 'eventStore' | 'clock' | 'settings' | 'projections' | 'logger'
>;

export interface WebhookEndpointView {
  id: string;
  url: string;
  event_types: WebhookEventType[];
  enabled: boolean;
  created_at: string;
}

/** Signed webhooks come with every plan except Free. */
export const planAllowsWebhooks = (plan: string) => isPlan(plan) && plan !== 'free';

export async function teamPlan(db: Db, teamId: string): Promise<string> {
  const team = await teamById(db, teamId);
  if (!team) throw new DomainError('team_not_found', 'Team not found');
  return team.plan;
}

async function run(
  context: WebhookEndpointDeps,
  endpointId: string,
  command: WebhookEndpointCommand,
  metadata: CommandMetadata,
  writeRows: (decided: unknown, tx: PoolClient) => Promise<void>,
) {
  try {
    const result = await handleCommand(context, {
      streamId: webhookEndpointStream(endpointId),
      decider: webhookEndpointDecider,
      command,
      metadata,
      writeRows,
    });
    await awaitReadModels(context, result.position);
    return result;
  } catch (error) {
    throw operatorApiError(error, signedDeliveryErrors);
  }
}

export async function createWebhookEndpoint(
  context: WebhookEndpointDeps,
  teamId: string,
  input: { url: string; event_types: string[]; enabled?: boolean },
  metadata: CommandMetadata,
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const plan = await answering(() => teamPlan(context.pool, teamId));
  const check = await checkTargetUrl(input.url, { allowlist: context.settings.HOOK_TARGET_ALLOWLIST });
  if (!check.ok) {
    throw operatorApiError(
      new DomainError('invalid_url', 'url must be a public HTTPS URL', {
        issues: [{ path: '/url', message: 'url must be a public HTTPS URL' }],
      }),
      signedDeliveryErrors,
    );
  }
  const endpointId = randomUUID();
  const now = context.clock.now();
  let secret = '';
  await run(
    context,
    endpointId,
    {
      type: 'CreateWebhookEndpoint',
      data: {
        endpoint_id: endpointId,
        team_id: teamId,
        url: input.url,
        event_types: input.event_types,
        enabled: input.enabled ?? true,
        plan_allows: planAllowsWebhooks(plan),
      },
      metadata: { now },
    },
    metadata,
    async (_decided, tx) => {
      secret = await insertEndpointSecret(tx, endpointId, teamId, now);
    },
  );
  return { endpoint: await readWebhookEndpoint(context, teamId, endpointId), secret };
}

export async function listWebhookEndpoints(
  context: WebhookEndpointDeps,
  teamId: string,
): Promise<WebhookEndpointView[]> {
  await answering(() => teamPlan(context.pool, teamId));
  return (await teamWebhookEndpoints(context.pool, teamId)).map(view);
}

/** One of the team's endpoints; another team's, unknown or deleted is webhook_endpoint_not_found. */
export async function readWebhookEndpoint(
  context: Pick<Platform, 'pool'>,
  teamId: string,
  endpointId: string,
): Promise<WebhookEndpointView> {
  const row = await teamWebhookEndpoint(context.pool, teamId, endpointId);
  if (!row) {
    throw operatorApiError(
      new DomainError('webhook_endpoint_not_found', 'Webhook endpoint not found'),
      signedDeliveryErrors,
    );
  }
  return view(row);
}

/** Deletes the endpoint; its queued deliveries fail (nothing more is sent to it). */
export async function deleteWebhookEndpoint(
  context: WebhookEndpointDeps,
  teamId: string,
  endpointId: string,
  metadata: CommandMetadata,
): Promise<void> {
  const now = context.clock.now();
  await run(
    context,
    endpointId,
    { type: 'DeleteWebhookEndpoint', data: { endpoint_id: endpointId, team_id: teamId }, metadata: { now } },
    metadata,
    async (_decided, tx) => {
      await tx.query(
        `update hook_deliveries set state = 'failed', next_attempt_at = null, last_error = 'endpoint deleted',
           updated_at = $2
         where subscription_id = $1 and target_kind = 'endpoint' and state in ('pending', 'retrying')`,
        [endpointId, now],
      );
    },
  );
}

/** A new secret for the endpoint; the previous one keeps signing until `previous_valid_until`. */
export async function rotateWebhookEndpointSecret(
  context: WebhookEndpointDeps,
  teamId: string,
  endpointId: string,
  metadata: CommandMetadata,
): Promise<{ secret: string; previous_valid_until: string }> {
  const now = context.clock.now();
  const until = overlapEnd(now);
  await run(
    context,
    endpointId,
    {
      type: 'RotateWebhookEndpointSecret',
      data: { endpoint_id: endpointId, team_id: teamId, previous_valid_until: until },
      metadata: { now },
    },
    metadata,
    (_decided, tx) => rotateEndpointSecretRow(tx, endpointId, now),
  );
  const { rows } = await context.pool.query<{ secret: string }>(
    'select secret from webhook_endpoint_secrets where endpoint_id = $1',
    [endpointId],
  );
  return { secret: rows[0]!.secret, previous_valid_until: until.toISOString() };
}

async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw operatorApiError(error, signedDeliveryErrors);
  }
}

function view(row: WebhookEndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    event_types: row.event_types as WebhookEventType[],
    enabled: row.enabled,
    created_at: new Date(row.created_at).toISOString(),
  };
}
