import type { FastifyInstance } from 'fastify';
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
import { endpointSchema, secretSchema } from './signed-delivery-routes.ts';
import { ensureTeamSecret, rotateTeamSecret } from './signing-secrets.ts';
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
import { workspaceErrorResponses } from '../../shared/http/workspace-request.ts';

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

const tag = { tags: ['workspace'] };
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

const secretAnswer = z.object({
  secret: secretSchema,
  previous_valid_until: z
    .string()
    .nullable()
    .describe(`after a rotation: until when the previous secret signs too (${SIGNING_OVERLAP_HOURS} hours)`),
});

/** What the routes of this file share. */
function workspaceHookKit(context: WorkspaceDeps) {
  const inSignedDeliveries = <T>(work: () => Promise<T>) => answeringRefusals(signedDeliveryErrors, work);
  return { context, inSignedDeliveries };
}

type WorkspaceHookKit = ReturnType<typeof workspaceHookKit>;

/** GET /hook-subscriptions */
function listHookSubscriptionsRoute(app: ZodApp, kit: WorkspaceHookKit) {
  const { context } = kit;
  app.get(
    '/hook-subscriptions',
    {
      config: { workspace: { action: 'hooks.read' } },
      schema: {
        operationId: 'workspaceListHookSubscriptions',
        ...tag,
        summary: "The team's active hook subscriptions, newest first",
        response: { ...workspaceErrorResponses(), 200: z.object({ data: z.array(subscriptionSchema) }) },
      },
    },
    async (request) => ({ data: await listHookSubscriptions(context, signedIn(request).teamId) }),
  );
}

/** GET /hook-subscriptions/:id */
function getHookSubscriptionRoute(app: ZodApp, kit: WorkspaceHookKit) {
  const { context } = kit;
  app.get(
    '/hook-subscriptions/:id',
    {
      config: { workspace: { action: 'hooks.read' } },
      schema: {
        operationId: 'workspaceGetHookSubscription',
        ...tag,
        summary: 'One active hook subscription',
        params: idParams,
        response: { ...workspaceErrorResponses(), 200: z.object({ subscription: subscriptionSchema }) },
      },
    },
    async (request) => {
      const found = await readHookSubscription(context, signedIn(request).teamId, request.params.id);
      if (!found) throw codedError(404, 'subscription_not_found', 'Subscription not found');
      return { subscription: found };
    },
  );
}

/** POST /hook-subscriptions */
function postHookSubscriptionRoute(app: ZodApp, kit: WorkspaceHookKit) {
  const { context, inSignedDeliveries } = kit;
  app.post(
    '/hook-subscriptions',
    {
      config: { workspace: { action: 'hooks.manage' } },
      schema: {
        operationId: 'workspaceCreateHookSubscription',
        ...tag,
        summary: 'Subscribe a public HTTPS URL to one event type (every request is a new subscription)',
        body: subscribeBody,
        response: { ...workspaceErrorResponses(), 201: z.object({ subscription: subscriptionSchema }) },
      },
    },
    async (request, reply) => {
      const session = signedIn(request);
      const plan = await inSignedDeliveries(() => teamPlan(context.pool, session.teamId));
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
        { teamId: session.teamId, event, targetUrl, apiKeyId: null },
        memberMetadata(request, session.memberId),
      );
      const subscription = await readHookSubscription(context, session.teamId, id);
      return reply.status(201).send({ subscription: subscription! });
    },
  );
}

/** DELETE /hook-subscriptions/:id */
function deleteHookSubscriptionRoute(app: ZodApp, kit: WorkspaceHookKit) {
  const { context, inSignedDeliveries } = kit;
  app.delete(
    '/hook-subscriptions/:id',
    {
      config: { workspace: { action: 'hooks.manage' } },
      schema: {
        operationId: 'workspaceDeleteHookSubscription',
        ...tag,
        summary: 'Delete a hook subscription',
        params: idParams,
        response: { ...workspaceErrorResponses(), 200: z.object({ success: z.literal(true) }) },
      },
    },
    async (request) => {
      const session = signedIn(request);
      await inSignedDeliveries(() =>
        deleteHookSubscription(
          context,
          session.teamId,
          request.params.id,
          memberMetadata(request, session.memberId),
        ),
      );
      return { success: true as const };
    },
  );
}

/** GET /hook-signing-secret */
function getHookSigningSecretRoute(app: ZodApp, kit: WorkspaceHookKit) {
  const { context } = kit;
  app.get(
    '/hook-signing-secret',
    {
      config: { ...SECRET_ANSWER, workspace: { action: 'hooks.secrets' } },
      schema: {
        operationId: 'workspaceGetHookSigningSecret',
        ...tag,
        summary: "The team's hook signing secret (re-authentication first); made on first need",
        response: { ...workspaceErrorResponses(), 200: secretAnswer },
      },
    },
    async (request) => {
      const session = signedIn(request);
      const now = context.clock.now();
      const stored = await ensureTeamSecret(
        context,
        session.teamId,
        now,
        memberMetadata(request, session.memberId),
      );
      const live = stored.previous_until && stored.previous_until > now;
      return {
        secret: stored.secret,
        previous_valid_until: live ? stored.previous_until!.toISOString() : null,
      };
    },
  );
}

/** POST /hook-signing-secret/rotate */
function rotateHookSigningSecretRoute(app: ZodApp, kit: WorkspaceHookKit) {
  const { context } = kit;
  app.post(
    '/hook-signing-secret/rotate',
    {
      config: { ...SECRET_ANSWER, workspace: { action: 'hooks.secrets' } },
      schema: {
        operationId: 'workspaceRotateHookSigningSecret',
        ...tag,
        summary: `A new hook signing secret (re-authentication first); the previous one signs for ${SIGNING_OVERLAP_HOURS} more hours`,
        response: { ...workspaceErrorResponses(), 200: secretAnswer },
      },
    },
    async (request) => {
      const session = signedIn(request);
      const stored = await rotateTeamSecret(
        context,
        session.teamId,
        context.clock.now(),
        memberMetadata(request, session.memberId),
      );
      return { secret: stored.secret, previous_valid_until: stored.previous_until?.toISOString() ?? null };
    },
  );
}

/** GET /webhook-endpoints */
function listWebhookEndpointsRoute(app: ZodApp, kit: WorkspaceHookKit) {
  const { context } = kit;
  app.get(
    '/webhook-endpoints',
    {
      config: { workspace: { action: 'hooks.read' } },
      schema: {
        operationId: 'workspaceListWebhookEndpoints',
        ...tag,
        summary: "The team's signed webhook endpoints (secrets are not listed)",
        response: { ...workspaceErrorResponses(), 200: z.object({ data: z.array(endpointSchema) }) },
      },
    },
    async (request) => ({ data: await listWebhookEndpoints(context, signedIn(request).teamId) }),
  );
}

/** GET /webhook-endpoints/:id */
function getWebhookEndpointRoute(app: ZodApp, kit: WorkspaceHookKit) {
  const { context } = kit;
  app.get(
    '/webhook-endpoints/:id',
    {
      config: { workspace: { action: 'hooks.read' } },
      schema: {
        operationId: 'workspaceGetWebhookEndpoint',
        ...tag,
        summary: 'One signed webhook endpoint',
        params: idParams,
        response: { ...workspaceErrorResponses(), 200: z.object({ endpoint: endpointSchema }) },
      },
    },
    async (request) => ({
      endpoint: await readWebhookEndpoint(context, signedIn(request).teamId, request.params.id),
    }),
  );
}

/** POST /webhook-endpoints */
function postWebhookEndpointRoute(app: ZodApp, kit: WorkspaceHookKit) {
  const { context } = kit;
  app.post(
    '/webhook-endpoints',
    {
      config: { ...SECRET_ANSWER, workspace: { action: 'hooks.secrets' } },
      schema: {
        operationId: 'workspaceCreateWebhookEndpoint',
        ...tag,
        summary:
          'Create a signed webhook endpoint (every plan except Free; re-authentication first: its secret is shown here once)',
        body: z.object({
          url: z.string().trim().min(1).max(MAX_TARGET_URL_LENGTH).describe('public HTTPS URL'),
          event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1),
          enabled: z.boolean().optional().describe('default true'),
        }),
        response: {
          ...workspaceErrorResponses(),
          201: z.object({ endpoint: endpointSchema, secret: secretSchema }),
        },
      },
    },
    async (request, reply) => {
      const session = signedIn(request);
      const created = await createWebhookEndpoint(
        context,
        session.teamId,
        request.body,
        memberMetadata(request, session.memberId),
      );
      return reply.status(201).send(created);
    },
  );
}

/** DELETE /webhook-endpoints/:id */
function deleteWebhookEndpointRoute(app: ZodApp, kit: WorkspaceHookKit) {
  const { context } = kit;
  app.delete(
    '/webhook-endpoints/:id',
    {
      config: { workspace: { action: 'hooks.manage' } },
      schema: {
        operationId: 'workspaceDeleteWebhookEndpoint',
        ...tag,
        summary: 'Delete a signed webhook endpoint (its queued deliveries fail)',
        params: idParams,
        response: { ...workspaceErrorResponses(), 200: z.object({ success: z.literal(true) }) },
      },
    },
    async (request) => {
      const session = signedIn(request);
      await deleteWebhookEndpoint(
        context,
        session.teamId,
        request.params.id,
        memberMetadata(request, session.memberId),
      );
      return { success: true as const };
    },
  );
}

/** POST /webhook-endpoints/:id/rotate-secret */
function rotateWebhookEndpointSecretRoute(app: ZodApp, kit: WorkspaceHookKit) {
  const { context } = kit;
  app.post(
    '/webhook-endpoints/:id/rotate-secret',
    {
      config: { ...SECRET_ANSWER, workspace: { action: 'hooks.secrets' } },
      schema: {
        operationId: 'workspaceRotateWebhookEndpointSecret',
        ...tag,
        summary: `A new secret for the endpoint (re-authentication first); the previous one signs for ${SIGNING_OVERLAP_HOURS} more hours`,
        params: idParams,
        response: {
          ...workspaceErrorResponses(),
          200: z.object({ secret: secretSchema, previous_valid_until: z.string() }),
        },
      },
    },
    async (request) => {
      const session = signedIn(request);
      return rotateWebhookEndpointSecret(
        context,
        session.teamId,
        request.params.id,
        memberMetadata(request, session.memberId),
      );
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
