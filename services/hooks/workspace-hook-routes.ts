import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { codedError } from '../../shared/http/api-error.ts';
import { answeringRefusals } from '../../shared/http/domain-errors.ts';
import { checkTargetUrl, MAX_TARGET_URL_LENGTH } from '../../shared/net/public-url.ts';
import { hasApiAccess, isPlan } from '../access/contract/plans.ts';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { memberMetadata } from '../../shared/http/workspace-request.ts';
import { signedIn } from '../../shared/http/workspace-request.ts';
import { PUBLIC_EVENT_TYPES } from '../events/contract/public-event-types.ts';
import { INVALID_EVENT, NOT_PUBLIC } from './hook-subscriptions-routes.ts';
import {
  createHookSubscription,
  deleteHookSubscription,
  listHookSubscriptions,
  readHookSubscription,
} from './hook-subscriptions.ts';
import { signedDeliveryErrors } from './signed-delivery-errors.ts';
import { endpointBody, endpointSchema, secretSchema } from './signed-delivery-routes.ts';
import { ensureTeamSecret, rotateTeamSecret, secretAnswer } from './signing-secrets.ts';
import { SIGNING_OVERLAP_HOURS } from './signing.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  readWebhookEndpoint,
  rotateWebhookEndpointSecret,
  teamPlan,
} from './webhook-endpoints.ts';
import { SECRET_ANSWER } from '../../shared/http/secret-answer.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';

/*
 * The workspace's hooks (owners and admins; /workspace/v1), thin routes over the
 * functions the operator API and the public API use, with the member as actor:
 *
 *   GET/POST /hook-subscriptions, GET/DELETE /hook-subscriptions/:id   the same rules as
 *     POST/DELETE /api/v1/automation/subscribe (public HTTPS target, one of the public
 *     event types; a plan with API access to add one)
 *   GET /hook-signing-secret, POST /hook-signing-secret/rotate        (re-authentication)
 *   GET/POST /webhook-endpoints, GET/DELETE /webhook-endpoints/:id,
 *   POST /webhook-endpoints/:id/rotate-secret                         (creating and rotating
 *     show a secret: re-authentication)
 * Delivery logs, tests and replays: ./workspace-delivery-routes.ts.
 */

const idParams = z.object({ id: z.string().uuid() });

export const subscriptionSchema = z.object({
  id: z.string().uuid(),
  event: z.string(),
  target_url: z.string(),
  created_at: z.string(),
  created_by: z.enum(['api_key', 'workspace']),
});

const subscribeBody = z.object({
  event: z.enum(PUBLIC_EVENT_TYPES, { errorMap: () => ({ message: INVALID_EVENT }) }),
  target_url: z.string().trim().min(1, NOT_PUBLIC).max(MAX_TARGET_URL_LENGTH, NOT_PUBLIC),
});

const secretAnswerSchema = z.object({
  secret: secretSchema,
  previous_valid_until: z
    .string()
    .nullable()
    .describe(`after a rotation: until when the previous secret signs too (${SIGNING_OVERLAP_HOURS} hours)`),
});
const success = z.object({ success: z.literal(true) });

/** What the routes of this file share. */
function workspaceHookKit(context: WorkspaceDeps) {
  const inSignedDeliveries = <T>(work: () => Promise<T>) => answeringRefusals(signedDeliveryErrors, work);
  /** The signed-in member's team and the metadata of what they do. */
  const member = (request: FastifyRequest) => {
    const session = signedIn(request);
    return { teamId: session.teamId, metadata: memberMetadata(request, session.memberId) };
  };
  return { context, inSignedDeliveries, member };
}

type WorkspaceHookKit = ReturnType<typeof workspaceHookKit>;

/** GET /hook-subscriptions */
function listHookSubscriptionsRoute(app: ZodApp, { context }: WorkspaceHookKit) {
  app.get(
    '/hook-subscriptions',
    {
      config: { workspace: { action: 'hooks.read' } },
      schema: workspaceSchema(
        'workspaceListHookSubscriptions',
        "The team's active hook subscriptions, newest first",
        {},
        { 200: z.object({ data: z.array(subscriptionSchema) }) },
      ),
    },
    async (request) => ({ data: await listHookSubscriptions(context, signedIn(request).teamId) }),
  );
}

/** GET /hook-subscriptions/:id */
function getHookSubscriptionRoute(app: ZodApp, { context }: WorkspaceHookKit) {
  app.get(
    '/hook-subscriptions/:id',
    {
      config: { workspace: { action: 'hooks.read' } },
      schema: workspaceSchema(
        'workspaceGetHookSubscription',
        'One active hook subscription',
        { params: idParams },
        { 200: z.object({ subscription: subscriptionSchema }) },
      ),
    },
    async (request) => {
      const found = await readHookSubscription(context, signedIn(request).teamId, request.params.id);
      if (!found) throw codedError(404, 'subscription_not_found', 'Subscription not found');
      return { subscription: found };
    },
  );
}

/** POST /hook-subscriptions */
function postHookSubscriptionRoute(app: ZodApp, { context, inSignedDeliveries, member }: WorkspaceHookKit) {
  app.post(
    '/hook-subscriptions',
    {
      config: { workspace: { action: 'hooks.manage' } },
      schema: workspaceSchema(
        'workspaceCreateHookSubscription',
        'Subscribe a public HTTPS URL to one event type (every request is a new subscription)',
        { body: subscribeBody },
        { 201: z.object({ subscription: subscriptionSchema }) },
      ),
    },
    async (request, reply) => {
      const { teamId, metadata } = member(request);
      const plan = await inSignedDeliveries(() => teamPlan(context.pool, teamId));
      if (!isPlan(plan) || !hasApiAccess(plan)) {
        throw codedError(
          403,
          'api_access_plan_required',
          "Hook subscriptions come with API access; your team's plan does not include it.",
        );
      }
      const { event, target_url: targetUrl } = request.body;
      const check = await checkTargetUrl(targetUrl, { allowlist: context.settings.HOOK_TARGET_ALLOWLIST });
      if (!check.ok) {
        throw codedError(400, 'invalid_url', NOT_PUBLIC, {
          details: { issues: [{ path: '/target_url', message: NOT_PUBLIC }] },
        });
      }
      const id = await createHookSubscription(
        context,
        { teamId, event, targetUrl, apiKeyId: null },
        metadata,
      );
      const subscription = await readHookSubscription(context, teamId, id);
      return reply.status(201).send({ subscription: subscription! });
    },
  );
}

/** DELETE /hook-subscriptions/:id */
function deleteHookSubscriptionRoute(app: ZodApp, { context, inSignedDeliveries, member }: WorkspaceHookKit) {
  app.delete(
    '/hook-subscriptions/:id',
    {
      config: { workspace: { action: 'hooks.manage' } },
      schema: workspaceSchema(
        'workspaceDeleteHookSubscription',
        'Delete a hook subscription',
        { params: idParams },
        {
          200: success,
        },
      ),
    },
    async (request) => {
      const { teamId, metadata } = member(request);
      await inSignedDeliveries(() => deleteHookSubscription(context, teamId, request.params.id, metadata));
      return { success: true as const };
    },
  );
}

/** GET /hook-signing-secret */
function getHookSigningSecretRoute(app: ZodApp, { context, member }: WorkspaceHookKit) {
  app.get(
    '/hook-signing-secret',
    {
      config: { ...SECRET_ANSWER, workspace: { action: 'hooks.secrets' } },
      schema: workspaceSchema(
        'workspaceGetHookSigningSecret',
        "The team's hook signing secret (re-authentication first); made on first need",
        {},
        { 200: secretAnswerSchema },
      ),
    },
    async (request) => {
      const { teamId, metadata } = member(request);
      const now = context.clock.now();
      return secretAnswer(await ensureTeamSecret(context, teamId, now, metadata), now);
    },
  );
}

/** POST /hook-signing-secret/rotate */
function rotateHookSigningSecretRoute(app: ZodApp, { context, member }: WorkspaceHookKit) {
  app.post(
    '/hook-signing-secret/rotate',
    {
      config: { ...SECRET_ANSWER, workspace: { action: 'hooks.secrets' } },
      schema: workspaceSchema(
        'workspaceRotateHookSigningSecret',
        `A new hook signing secret (re-authentication first); the previous one signs for ${SIGNING_OVERLAP_HOURS} more hours`,
        {},
        { 200: secretAnswerSchema },
      ),
    },
    async (request) => {
      const { teamId, metadata } = member(request);
      return secretAnswer(await rotateTeamSecret(context, teamId, context.clock.now(), metadata));
    },
  );
}

/** GET /webhook-endpoints */
function listWebhookEndpointsRoute(app: ZodApp, { context }: WorkspaceHookKit) {
  app.get(
    '/webhook-endpoints',
    {
      config: { workspace: { action: 'hooks.read' } },
      schema: workspaceSchema(
        'workspaceListWebhookEndpoints',
        "The team's signed webhook endpoints (secrets are not listed)",
        {},
        { 200: z.object({ data: z.array(endpointSchema) }) },
      ),
    },
    async (request) => ({ data: await listWebhookEndpoints(context, signedIn(request).teamId) }),
  );
}

/** GET /webhook-endpoints/:id */
function getWebhookEndpointRoute(app: ZodApp, { context }: WorkspaceHookKit) {
  app.get(
    '/webhook-endpoints/:id',
    {
      config: { workspace: { action: 'hooks.read' } },
      schema: workspaceSchema(
        'workspaceGetWebhookEndpoint',
        'One signed webhook endpoint',
        { params: idParams },
        {
          200: z.object({ endpoint: endpointSchema }),
        },
      ),
    },
    async (request) => ({
      endpoint: await readWebhookEndpoint(context, signedIn(request).teamId, request.params.id),
    }),
  );
}

/** POST /webhook-endpoints */
function postWebhookEndpointRoute(app: ZodApp, { context, member }: WorkspaceHookKit) {
  app.post(
    '/webhook-endpoints',
    {
      config: { ...SECRET_ANSWER, workspace: { action: 'hooks.secrets' } },
      schema: workspaceSchema(
        'workspaceCreateWebhookEndpoint',
        'Create a signed webhook endpoint (every plan except Free; re-authentication first: its secret is shown here once)',
        { body: endpointBody },
        { 201: z.object({ endpoint: endpointSchema, secret: secretSchema }) },
      ),
    },
    async (request, reply) => {
      const { teamId, metadata } = member(request);
      return reply.status(201).send(await createWebhookEndpoint(context, teamId, request.body, metadata));
    },
  );
}

/** DELETE /webhook-endpoints/:id */
function deleteWebhookEndpointRoute(app: ZodApp, { context, member }: WorkspaceHookKit) {
  app.delete(
    '/webhook-endpoints/:id',
    {
      config: { workspace: { action: 'hooks.manage' } },
      schema: workspaceSchema(
        'workspaceDeleteWebhookEndpoint',
        'Delete a signed webhook endpoint (its queued deliveries fail)',
        { params: idParams },
        { 200: success },
      ),
    },
    async (request) => {
      const { teamId, metadata } = member(request);
      await deleteWebhookEndpoint(context, teamId, request.params.id, metadata);
      return { success: true as const };
    },
  );
}

/** POST /webhook-endpoints/:id/rotate-secret */
function rotateWebhookEndpointSecretRoute(app: ZodApp, { context, member }: WorkspaceHookKit) {
  app.post(
    '/webhook-endpoints/:id/rotate-secret',
    {
      config: { ...SECRET_ANSWER, workspace: { action: 'hooks.secrets' } },
      schema: workspaceSchema(
        'workspaceRotateWebhookEndpointSecret',
        `A new secret for the endpoint (re-authentication first); the previous one signs for ${SIGNING_OVERLAP_HOURS} more hours`,
        { params: idParams },
        { 200: z.object({ secret: secretSchema, previous_valid_until: z.string() }) },
      ),
    },
    async (request) => {
      const { teamId, metadata } = member(request);
      return rotateWebhookEndpointSecret(context, teamId, request.params.id, metadata);
    },
  );
}

export async function workspaceHookRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  const kit = workspaceHookKit(context);
  listHookSubscriptionsRoute(app, kit);
  getHookSubscriptionRoute(app, kit);
  postHookSubscriptionRoute(app, kit);
  deleteHookSubscriptionRoute(app, kit);
  getHookSigningSecretRoute(app, kit);
  rotateHookSigningSecretRoute(app, kit);
  listWebhookEndpointsRoute(app, kit);
  getWebhookEndpointRoute(app, kit);
  postWebhookEndpointRoute(app, kit);
  deleteWebhookEndpointRoute(app, kit);
  rotateWebhookEndpointSecretRoute(app, kit);
}
