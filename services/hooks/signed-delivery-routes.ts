import type { FastifyInstance } from 'fastify';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import type { Platform } from '../../shared/app-deps.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { operatorApiError } from '../../shared/http/operator-commands.ts';
import { operatorSchema } from '../../shared/http/route-schema.ts';
import { requestMetadata } from '../../shared/http/request-metadata.ts';
import { MAX_TARGET_URL_LENGTH } from '../../shared/net/public-url.ts';
import type { DeliveryTargetKind } from './delivery-log-decider.ts';
import {
  findTarget,
  listDeliveries,
  MAX_DELIVERY_PAGE_SIZE,
  replayDelivery,
  replayFailedSince,
  sendTestDelivery,
} from './delivery-log.ts';
import { signedDeliveryErrors } from './signed-delivery-errors.ts';
import { ensureTeamSecret, rotateTeamSecret, secretAnswer } from './signing-secrets.ts';
import { SIGNING_OVERLAP_HOURS } from './signing.ts';
import { WEBHOOK_EVENT_TYPES } from './contract/webhook-event-types.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  readWebhookEndpoint,
  rotateWebhookEndpointSecret,
  teamPlan,
} from './webhook-endpoints.ts';
import { SECRET_ANSWER } from '../../shared/http/secret-answer.ts';

export type SignedDeliveryRouteDeps = Pick<
  Platform,
  'pool' | 'eventStore' | 'clock' | 'settings' | 'projections' | 'logger'
>;

/*
 * Operator API: signed deliveries (the operations live in ./signing-secrets.ts,
 * ./webhook-endpoints.ts and ./delivery-log.ts, shared with the workspace).
 *
 *   GET    /teams/:team_id/hook-signing-secret                 the team's hook signing secret (made on first need)
 *   POST   /teams/:team_id/hook-signing-secret/rotate          a new one; the previous signs too for 24 hours
 *   POST   /teams/:team_id/webhook-endpoints                   201 { endpoint, secret }  (not on Free: 403 webhooks_plan_required)
 *   GET    /teams/:team_id/webhook-endpoints                   { endpoints }
 *   GET    /teams/:team_id/webhook-endpoints/:id               { endpoint }
 *   DELETE /teams/:team_id/webhook-endpoints/:id               { success }
 *   POST   /teams/:team_id/webhook-endpoints/:id/rotate-secret { secret, previous_valid_until }
 *   and for both hook-subscriptions/:id and webhook-endpoints/:id:
 *   GET    .../deliveries?limit=&cursor=                       newest first, attempts inside
 *   POST   .../test                                            202 a `webhook.test` delivery queued
 *   POST   .../deliveries/:delivery_id/replay                  202 { replayed: [id] or [] when queued already }
 *   POST   .../deliveries/replay-failed {since}                202 { replayed: [ids] }
 */

const teamParams = z.object({ team_id: z.string().uuid() });
const targetParams = teamParams.extend({ id: z.string().uuid() });
const deliveryParams = targetParams.extend({ delivery_id: z.string().uuid() });

export const secretSchema = z.string().describe('whsec_ and the base64 of 32 random bytes');
export const endpointSchema = z.object({
  id: z.string().uuid(),
  url: z.string(),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  created_at: z.string(),
});
/** A new signed webhook endpoint, on both faces. */
export const endpointBody = z.object({
  url: z.string().trim().min(1).max(MAX_TARGET_URL_LENGTH).describe('public HTTPS URL'),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1),
  enabled: z.boolean().optional().describe('default true'),
});
const attemptSchema = z.object({
  round: z.number().int().describe('0 for the first sending, then one more per replay'),
  attempt: z.number().int(),
  attempted_at: z.string(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable().describe('HTTP <status>, or the kind of failure when no answer came'),
  duration_ms: z.number().int(),
  next_attempt_at: z.string().nullable(),
});
export const deliverySchema = z.object({
  id: z.string().uuid().describe('the webhook-id it is sent with'),
  event_id: z.string().uuid(),
  event_type: z.string(),
  state: z.enum(['pending', 'retrying', 'delivered', 'failed']),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  attempts: z.array(attemptSchema),
});

const notFound = coded('Team, target or delivery not found');

/** What the routes of this file share. */
function signedDeliveryKit(context: SignedDeliveryRouteDeps) {
  const knownTeam = async (teamId: string) => {
    try {
      await teamPlan(context.pool, teamId);
    } catch (error) {
      throw operatorApiError(error, signedDeliveryErrors);
    }
  };

  return { context, knownTeam };
}

type SignedDeliveryKit = ReturnType<typeof signedDeliveryKit>;

/** GET /teams/:team_id/hook-signing-secret */
function getHookSigningSecretRoute(app: ZodApp, { context, knownTeam }: SignedDeliveryKit) {
  app.get(
    '/teams/:team_id/hook-signing-secret',
    {
      config: SECRET_ANSWER,
      schema: operatorSchema(
        'adminGetHookSigningSecret',
        "The team's hook signing secret (webhook-signature of every hook delivery); made on first need",
        { params: teamParams },
        {
          200: z.object({
            secret: secretSchema,
            previous_valid_until: z
              .string()
              .nullable()
              .describe('after a rotation: until when the previous secret signs too'),
          }),
          404: notFound,
        },
      ),
    },
    async (request) => {
      await knownTeam(request.params.team_id);
      const now = context.clock.now();
      return secretAnswer(
        await ensureTeamSecret(context, request.params.team_id, now, requestMetadata(request)),
        now,
      );
    },
  );
}

/** POST /teams/:team_id/hook-signing-secret/rotate */
function rotateHookSigningSecretRoute(app: ZodApp, { context, knownTeam }: SignedDeliveryKit) {
  app.post(
    '/teams/:team_id/hook-signing-secret/rotate',
    {
      config: SECRET_ANSWER,
      schema: operatorSchema(
        'adminRotateHookSigningSecret',
        `A new hook signing secret; the previous one keeps signing for ${SIGNING_OVERLAP_HOURS} hours`,
        { params: teamParams },
        {
          200: z.object({ secret: secretSchema, previous_valid_until: z.string().nullable() }),
          404: notFound,
        },
      ),
    },
    async (request) => {
      await knownTeam(request.params.team_id);
      const stored = await rotateTeamSecret(
        context,
        request.params.team_id,
        context.clock.now(),
        requestMetadata(request),
      );
      return secretAnswer(stored);
    },
  );
}

/** POST /teams/:team_id/webhook-endpoints */
function postWebhookEndpointRoute(app: ZodApp, { context }: SignedDeliveryKit) {
  app.post(
    '/teams/:team_id/webhook-endpoints',
    {
      config: SECRET_ANSWER,
      schema: operatorSchema(
        'adminCreateWebhookEndpoint',
        'Create a signed webhook endpoint (every plan except Free); its secret is shown here and on rotation',
        {
          params: teamParams,
          body: endpointBody,
        },
        {
          201: z.object({ endpoint: endpointSchema, secret: secretSchema }),
          403: coded("The team's plan is Free (code webhooks_plan_required)"),
          404: notFound,
        },
      ),
    },
    async (request, reply) => {
      const { team_id } = request.params;
      return reply
        .status(201)
        .send(await createWebhookEndpoint(context, team_id, request.body, requestMetadata(request)));
    },
  );
}

/** GET /teams/:team_id/webhook-endpoints */
function listWebhookEndpointsRoute(app: ZodApp, { context }: SignedDeliveryKit) {
  app.get(
    '/teams/:team_id/webhook-endpoints',
    {
      schema: operatorSchema(
        'adminListWebhookEndpoints',
        "The team's signed webhook endpoints (secrets are not listed)",
        { params: teamParams },
        { 200: z.object({ endpoints: z.array(endpointSchema) }), 404: notFound },
      ),
    },
    async (request) => ({ endpoints: await listWebhookEndpoints(context, request.params.team_id) }),
  );
}

/** GET /teams/:team_id/webhook-endpoints/:id */
function getWebhookEndpointRoute(app: ZodApp, { context }: SignedDeliveryKit) {
  app.get(
    '/teams/:team_id/webhook-endpoints/:id',
    {
      schema: operatorSchema(
        'adminGetWebhookEndpoint',
        'One signed webhook endpoint',
        { params: targetParams },
        { 200: z.object({ endpoint: endpointSchema }), 404: notFound },
      ),
    },
    async ({ params }) => ({ endpoint: await readWebhookEndpoint(context, params.team_id, params.id) }),
  );
}

/** DELETE /teams/:team_id/webhook-endpoints/:id */
function deleteWebhookEndpointRoute(app: ZodApp, { context }: SignedDeliveryKit) {
  app.delete(
    '/teams/:team_id/webhook-endpoints/:id',
    {
      schema: operatorSchema(
        'adminDeleteWebhookEndpoint',
        'Delete a signed webhook endpoint (its queued deliveries fail)',
        { params: targetParams },
        { 200: z.object({ success: z.literal(true) }), 404: notFound },
      ),
    },
    async (request) => {
      const { team_id, id } = request.params;
      await deleteWebhookEndpoint(context, team_id, id, requestMetadata(request));
      return { success: true as const };
    },
  );
}

/** POST /teams/:team_id/webhook-endpoints/:id/rotate-secret */
function rotateWebhookEndpointSecretRoute(app: ZodApp, { context }: SignedDeliveryKit) {
  app.post(
    '/teams/:team_id/webhook-endpoints/:id/rotate-secret',
    {
      config: SECRET_ANSWER,
      schema: operatorSchema(
        'adminRotateWebhookEndpointSecret',
        `A new secret for the endpoint; the previous one keeps signing for ${SIGNING_OVERLAP_HOURS} hours`,
        { params: targetParams },
        { 200: z.object({ secret: secretSchema, previous_valid_until: z.string() }), 404: notFound },
      ),
    },
    async (request) => {
      const { team_id, id } = request.params;
      return rotateWebhookEndpointSecret(context, team_id, id, requestMetadata(request));
    },
  );
}

/**
 * One kind of delivery target (hook subscription or signed webhook endpoint): its routes'
 * base, its words, the operationId of each of its routes, and the target a request names.
 */
function deliveryTarget({ context }: SignedDeliveryKit, segment: string, kind: DeliveryTargetKind) {
  const hook = kind === 'hook';
  return {
    base: `/teams/:team_id/${segment}/:id`,
    what: hook ? 'hook subscription' : 'signed webhook endpoint',
    operationIds: {
      deliveries: hook ? 'adminListHookDeliveries' : 'adminListWebhookDeliveries',
      test: hook ? 'adminTestHookSubscription' : 'adminTestWebhookEndpoint',
      replay: hook ? 'adminReplayHookDelivery' : 'adminReplayWebhookDelivery',
      replayFailed: hook ? 'adminReplayFailedHookDeliveries' : 'adminReplayFailedWebhookDeliveries',
    },
    target: (params: { team_id: string; id: string }, live: boolean) =>
      findTarget(context, params.team_id, kind, params.id, { live }),
  };
}

type DeliveryTarget = ReturnType<typeof deliveryTarget>;

/** GET .../deliveries, POST .../test, .../deliveries/:delivery_id/replay and .../deliveries/replay-failed of a target */
function deliveryTargetRoutes(app: ZodApp, { context }: SignedDeliveryKit, target: DeliveryTarget) {
  const { base, what, operationIds } = target;
  app.get(
    `${base}/deliveries`,
    {
      schema: operatorSchema(
        operationIds.deliveries,
        `The delivery log of a ${what}: newest first, each with its attempts`,
        {
          params: targetParams,
          querystring: z.object({
            limit: z.coerce
              .number()
              .int()
              .min(1)
              .max(MAX_DELIVERY_PAGE_SIZE)
              .optional()
              .describe('default 20'),
            cursor: z.string().max(500).optional().describe('next_cursor of the previous page'),
          }),
        },
        {
          200: z.object({ deliveries: z.array(deliverySchema), next_cursor: z.string().nullable() }),
          404: notFound,
        },
      ),
    },
    async (request) => listDeliveries(context, await target.target(request.params, false), request.query),
  );
  app.post(
    `${base}/test`,
    {
      schema: operatorSchema(
        operationIds.test,
        `Send a test delivery (event webhook.test, signed like any other) to a ${what}`,
        { params: targetParams },
        {
          202: z.object({ delivery_id: z.string().uuid(), event_type: z.literal('webhook.test') }),
          404: notFound,
        },
      ),
    },
    async (request, reply) => {
      const live = await target.target(request.params, true);
      const queued = await sendTestDelivery(context, live, requestMetadata(request));
      return reply.status(202).send({ delivery_id: queued.delivery_id, event_type: 'webhook.test' as const });
    },
  );
  replayRoutes(app, context, target);
}

/** POST .../deliveries/:delivery_id/replay and .../deliveries/replay-failed of a target */
function replayRoutes(
  app: ZodApp,
  context: SignedDeliveryRouteDeps,
  { base, what, operationIds, target }: DeliveryTarget,
) {
  app.post(
    `${base}/deliveries/:delivery_id/replay`,
    {
      schema: operatorSchema(
        operationIds.replay,
        `Send a delivery of a ${what} again: same webhook-id and body, new timestamp and signature`,
        { params: deliveryParams },
        {
          202: z.object({
            replayed: z.array(z.string().uuid()).describe('empty when the delivery is queued already'),
          }),
          404: notFound,
        },
      ),
    },
    async (request, reply) => {
      const live = await target(request.params, true);
      const replayed = await replayDelivery(
        context,
        live,
        request.params.delivery_id,
        requestMetadata(request),
      );
      return reply.status(202).send(replayed);
    },
  );
  app.post(
    `${base}/deliveries/replay-failed`,
    {
      schema: operatorSchema(
        operationIds.replayFailed,
        `Send again every delivery of a ${what} that failed at or after \`since\` (at most 1000 per request)`,
        { params: targetParams, body: z.object({ since: z.string().datetime({ offset: true }) }) },
        { 202: z.object({ replayed: z.array(z.string().uuid()) }), 404: notFound },
      ),
    },
    async (request, reply) => {
      const live = await target(request.params, true);
      const since = new Date(request.body.since);
      return reply.status(202).send(await replayFailedSince(context, live, since, requestMetadata(request)));
    },
  );
}

export async function signedDeliveryRoutes(
  plain: FastifyInstance,
  { context }: { context: SignedDeliveryRouteDeps },
) {
  const app = zodApp(plain);
  const kit = signedDeliveryKit(context);
  getHookSigningSecretRoute(app, kit);
  rotateHookSigningSecretRoute(app, kit);
  postWebhookEndpointRoute(app, kit);
  listWebhookEndpointsRoute(app, kit);
  getWebhookEndpointRoute(app, kit);
  deleteWebhookEndpointRoute(app, kit);
  rotateWebhookEndpointSecretRoute(app, kit);

  for (const [segment, kind] of [
    ['hook-subscriptions', 'hook'],
    ['webhook-endpoints', 'endpoint'],
  ] as const satisfies readonly (readonly [string, DeliveryTargetKind])[]) {
    deliveryTargetRoutes(app, kit, deliveryTarget(kit, segment, kind));
  }
}
