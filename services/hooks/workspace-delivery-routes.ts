import type { FastifyInstance } from 'fastify';
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
import { workspaceErrorResponses } from '../../shared/http/workspace-request.ts';

/*
 * The workspace's delivery logs (owners and admins), for hook subscriptions and signed
 * webhook endpoints alike, over ./delivery-log.ts (the operator API's functions):
 *
 *   GET  /{hook-subscriptions|webhook-endpoints}/:id/deliveries?limit=&cursor=
 *   POST .../:id/test                                  202 a webhook.test delivery queued
 *   POST .../:id/deliveries/:delivery_id/replay        202 same webhook-id and body, new signature
 *   POST .../:id/deliveries/replay-failed {since}      202 every failed one since `since`
 */

const tag = { tags: ['workspace'] };
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
  const target = (teamId: string, id: string, live: boolean) =>
    findTarget(context, teamId, kind, id, { live });

  app.get(
    `${base}/deliveries`,
    {
      config: { workspace: { action: 'hooks.read' } },
      schema: {
        operationId: DELIVERY_OPERATIONS[kind].list,
        ...tag,
        summary: `The delivery log of a ${what}: newest first, each with its attempts`,
        params: targetParams,
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(MAX_DELIVERY_PAGE_SIZE).optional(),
          cursor: z.string().max(500).optional(),
        }),
        response: {
          ...workspaceErrorResponses(),
          200: z.object({ deliveries: z.array(deliverySchema), next_cursor: z.string().nullable() }),
        },
      },
    },
    async (request) =>
      listDeliveries(
        context,
        await target(signedIn(request).teamId, request.params.id, false),
        request.query,
      ),
  );

  app.post(
    `${base}/test`,
    {
      config: { workspace: { action: 'hooks.manage' } },
      schema: {
        operationId: DELIVERY_OPERATIONS[kind].test,
        ...tag,
        summary: `Send a test delivery (event webhook.test, signed like any other) to a ${what}`,
        params: targetParams,
        response: {
          ...workspaceErrorResponses(),
          202: z.object({ delivery_id: z.string().uuid(), event_type: z.literal('webhook.test') }),
        },
      },
    },
    async (request, reply) => {
      const session = signedIn(request);
      const queued = await sendTestDelivery(
        context,
        await target(session.teamId, request.params.id, true),
        memberMetadata(request, session.memberId),
      );
      return reply.status(202).send({ delivery_id: queued.delivery_id, event_type: 'webhook.test' as const });
    },
  );

  app.post(
    `${base}/deliveries/:delivery_id/replay`,
    {
      config: { workspace: { action: 'hooks.manage' } },
      schema: {
        operationId: DELIVERY_OPERATIONS[kind].replay,
        ...tag,
        summary: `Send a delivery of a ${what} again: same webhook-id and body, new timestamp and signature`,
        params: deliveryParams,
        response: { ...workspaceErrorResponses(), 202: z.object({ replayed: z.array(z.string().uuid()) }) },
      },
    },
    async (request, reply) => {
      const session = signedIn(request);
      const replayed = await replayDelivery(
        context,
        await target(session.teamId, request.params.id, true),
        request.params.delivery_id,
        memberMetadata(request, session.memberId),
      );
      return reply.status(202).send(replayed);
    },
  );

  app.post(
    `${base}/deliveries/replay-failed`,
    {
      config: { workspace: { action: 'hooks.manage' } },
      schema: {
        operationId: DELIVERY_OPERATIONS[kind].replayFailed,
        ...tag,
        summary: `Send again every delivery of a ${what} that failed at or after \`since\` (at most 1000 per request)`,
        params: targetParams,
        body: z.object({ since: z.string().datetime({ offset: true }) }),
        response: { ...workspaceErrorResponses(), 202: z.object({ replayed: z.array(z.string().uuid()) }) },
      },
    },
    async (request, reply) => {
      const session = signedIn(request);
      const replayed = await replayFailedSince(
        context,
        await target(session.teamId, request.params.id, true),
        new Date(request.body.since),
        memberMetadata(request, session.memberId),
      );
      return reply.status(202).send(replayed);
    },
  );
}
