import type { FastifyInstance, FastifyRequest } from 'fastify';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { memberMetadata } from '../../shared/http/workspace-request.ts';
import { signedIn } from '../../shared/http/workspace-request.ts';
import type { DeliveryTargetKind } from './delivery-log-decider.ts';
import {
  findTarget,
  listDeliveries,
  MAX_DELIVERY_PAGE_SIZE,
  replayDelivery,
  replayFailedSince,
  sendTestDelivery,
} from './delivery-log.ts';
import { deliverySchema } from './signed-delivery-routes.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';

/*
 * The workspace's delivery logs (owners and admins), for hook subscriptions and signed
 * webhook endpoints alike, over ./delivery-log.ts (the operator API's functions):
 *
 *   GET  /{hook-subscriptions|webhook-endpoints}/:id/deliveries?limit=&cursor=
 *   POST .../:id/test                                  202 a webhook.test delivery queued
 *   POST .../:id/deliveries/:delivery_id/replay        202 same webhook-id and body, new signature
 *   POST .../:id/deliveries/replay-failed {since}      202 every failed one since `since`
 */

const targetParams = z.object({ id: z.string().uuid() });
const deliveryParams = targetParams.extend({ delivery_id: z.string().uuid() });

/** The operationIds of the delivery routes of each kind of target. */
const DELIVERY_OPERATIONS = {
  hook: {
    list: 'workspaceListHookDeliveries',
    test: 'workspaceTestHookSubscription',
    replay: 'workspaceReplayHookDelivery',
    replayFailed: 'workspaceReplayFailedHookDeliveries',
  },
  endpoint: {
    list: 'workspaceListWebhookDeliveries',
    test: 'workspaceTestWebhookEndpoint',
    replay: 'workspaceReplayWebhookDelivery',
    replayFailed: 'workspaceReplayFailedWebhookDeliveries',
  },
} as const satisfies Record<DeliveryTargetKind, Record<string, string>>;

export async function workspaceDeliveryRoutes(
  plain: FastifyInstance,
  { context }: { context: WorkspaceDeps },
) {
  for (const [segment, kind] of [
    ['hook-subscriptions', 'hook'],
    ['webhook-endpoints', 'endpoint'],
  ] as const satisfies readonly (readonly [string, DeliveryTargetKind])[]) {
    targetDeliveryRoutes(plain, context, segment, kind);
  }
}

/** The four delivery-log routes of one kind of target, under /{segment}/:id. */
function targetDeliveryRoutes(
  plain: FastifyInstance,
  context: WorkspaceDeps,
  segment: string,
  kind: DeliveryTargetKind,
) {
  const app = zodApp(plain);
  const base = `/${segment}/:id`;
  const what = kind === 'hook' ? 'hook subscription' : 'signed webhook endpoint';
  const operationIds = DELIVERY_OPERATIONS[kind];
  /** The signed-in member's target (a live one to send to), and the metadata of what they do. */
  const targetOf = async (request: FastifyRequest, id: string, live: boolean) => {
    const session = signedIn(request);
    return {
      target: await findTarget(context, session.teamId, kind, id, { live }),
      metadata: memberMetadata(request, session.memberId),
    };
  };
  const replayed = z.object({ replayed: z.array(z.string().uuid()) });

  app.get(
    `${base}/deliveries`,
    {
      config: { workspace: { action: 'hooks.read' } },
      schema: workspaceSchema(
        operationIds.list,
        `The delivery log of a ${what}: newest first, each with its attempts`,
        {
          params: targetParams,
          querystring: z.object({
            limit: z.coerce.number().int().min(1).max(MAX_DELIVERY_PAGE_SIZE).optional(),
            cursor: z.string().max(500).optional(),
          }),
        },
        { 200: z.object({ deliveries: z.array(deliverySchema), next_cursor: z.string().nullable() }) },
      ),
    },
    async (request) =>
      listDeliveries(context, (await targetOf(request, request.params.id, false)).target, request.query),
  );

  app.post(
    `${base}/test`,
    {
      config: { workspace: { action: 'hooks.manage' } },
      schema: workspaceSchema(
        operationIds.test,
        `Send a test delivery (event webhook.test, signed like any other) to a ${what}`,
        { params: targetParams },
        { 202: z.object({ delivery_id: z.string().uuid(), event_type: z.literal('webhook.test') }) },
      ),
    },
    async (request, reply) => {
      const { target, metadata } = await targetOf(request, request.params.id, true);
      const queued = await sendTestDelivery(context, target, metadata);
      return reply.status(202).send({ delivery_id: queued.delivery_id, event_type: 'webhook.test' as const });
    },
  );

  app.post(
    `${base}/deliveries/:delivery_id/replay`,
    {
      config: { workspace: { action: 'hooks.manage' } },
      schema: workspaceSchema(
        operationIds.replay,
        `Send a delivery of a ${what} again: same webhook-id and body, new timestamp and signature`,
        { params: deliveryParams },
        { 202: replayed },
      ),
    },
    async (request, reply) => {
      const { target, metadata } = await targetOf(request, request.params.id, true);
      return reply
        .status(202)
        .send(await replayDelivery(context, target, request.params.delivery_id, metadata));
    },
  );

  app.post(
    `${base}/deliveries/replay-failed`,
    {
      config: { workspace: { action: 'hooks.manage' } },
      schema: workspaceSchema(
        operationIds.replayFailed,
        `Send again every delivery of a ${what} that failed at or after \`since\` (at most 1000 per request)`,
        { params: targetParams, body: z.object({ since: z.string().datetime({ offset: true }) }) },
        { 202: replayed },
      ),
    },
    async (request, reply) => {
      const { target, metadata } = await targetOf(request, request.params.id, true);
      return reply
        .status(202)
        .send(await replayFailedSince(context, target, new Date(request.body.since), metadata));
    },
  );
}
