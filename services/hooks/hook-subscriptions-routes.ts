import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { createHookSubscription, deleteHookSubscription } from './hook-subscriptions.ts';
import { PUBLIC_EVENT_TYPES } from '../events/contract/public-event-types.ts';
import { textError } from '../../shared/http/api-error.ts';
import { answeringRefusals, registerDomainErrors } from '../../shared/http/domain-errors.ts';
import { checkTargetUrl, MAX_TARGET_URL_LENGTH } from '../../shared/net/public-url.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { text } from '../../shared/http/error-schemas.ts';
import { requestMetadata } from '../../shared/http/request-metadata.ts';
import { emptyBodyAnswers, firstMessage } from '../../shared/http/body-errors.ts';
import { isUuid } from '../../shared/ids/uuid.ts';
import { publicErrorResponses } from '../../shared/http/public-errors.ts';

export type HookSubscriptionsRouteDeps = Pick<
  Platform,
  'settings' | 'clock' | 'pool' | 'eventStore' | 'projections' | 'logger'
>;

/*
 * Hook subscriptions (client-onboarding-api.md: POST and DELETE
 * /api/v1/automation/subscribe). Every subscribe creates a new active subscription; the
 * target URL must be a public HTTPS URL (shared/net/public-url.ts, checked again at
 * connect time by the deliveries). Another team's subscription is "Subscription not
 * found", exactly like an unknown one.
 */

export const REQUIRED = 'event and target_url are required';
export const INVALID_EVENT = `Invalid event. Allowed values: ${PUBLIC_EVENT_TYPES.join(', ')}`;
export const NOT_PUBLIC = 'target_url must be a public HTTPS URL';
const ID_REQUIRED = 'id is required';
const NOT_FOUND = 'Subscription not found';

/** The hook subscriptions' table: an unknown, another team's or deleted subscription. */
const hookSubscriptionErrors = registerDomainErrors('hook subscriptions', {
  statuses: { subscription_not_found: 404 },
  form: () => textError(404, NOT_FOUND),
});

const absent = (value: unknown) => value === undefined || value === null || value === '';

const subscribeBody = z.object(
  {
    event: z.enum(PUBLIC_EVENT_TYPES, {
      errorMap: (_issue, ctx) => ({ message: absent(ctx.data) ? REQUIRED : INVALID_EVENT }),
    }),
    target_url: z
      .string({ errorMap: (_issue, ctx) => ({ message: absent(ctx.data) ? REQUIRED : NOT_PUBLIC }) })
      .trim()
      .min(1, REQUIRED)
      .max(MAX_TARGET_URL_LENGTH, NOT_PUBLIC)
      .describe(
        'public HTTPS URL, at most 500 characters, no username or password; private, loopback, link-local and internal hosts (and names resolving to them) are refused',
      ),
  },
  { required_error: REQUIRED, invalid_type_error: REQUIRED },
);

const unsubscribeBody = z.object(
  { id: z.string({ errorMap: () => ({ message: ID_REQUIRED }) }).refine(isUuid, ID_REQUIRED) },
  { required_error: ID_REQUIRED, invalid_type_error: ID_REQUIRED },
);

export async function hookSubscriptionsRoutes(
  plain: FastifyInstance,
  { context }: { context: HookSubscriptionsRouteDeps },
) {
  const app = zodApp(plain);

  app.post(
    '/automation/subscribe',
    {
      config: { scope: 'webhooks:write' },
      attachValidation: true,
      schema: {
        operationId: 'subscribeHook',
        tags: ['hook subscriptions'],
        summary: 'Subscribe a URL to one event type (every request is a new active subscription)',
        description:
          'Scope webhooks:write. Body: `event` (one of the eight event types, required), `target_url` (public HTTPS URL, max 500 characters, no username or password; private and internal hosts refused). Response 201: `id`. Each request creates a new active subscription, even for an identical event and URL. Errors: 400 event and target_url are required; 400 Invalid event with the allowed list; 400 target_url must be a public HTTPS URL. The deliveries are described under webhooks.',
        body: subscribeBody,
        response: {
          201: z.object({ id: z.string().uuid() }),
          ...publicErrorResponses({ body: true }),
          400: text(`${REQUIRED} | ${INVALID_EVENT} | ${NOT_PUBLIC}`),
        },
      },
      errorHandler: emptyBodyAnswers(REQUIRED),
    },
    async (request, reply) => {
      if (request.validationError) {
        throw textError(400, firstMessage(request.validationError.validation, REQUIRED));
      }
      const { event, target_url: targetUrl } = request.body;
      const check = await checkTargetUrl(targetUrl, { allowlist: context.settings.HOOK_TARGET_ALLOWLIST });
      if (!check.ok) throw textError(400, NOT_PUBLIC);
      const id = await createHookSubscription(
        context,
        { teamId: request.principal.teamId, event, targetUrl, apiKeyId: request.principal.apiKeyId },
        requestMetadata(request, { apiKeyId: request.principal.apiKeyId }),
      );
      return reply.status(201).send({ id });
    },
  );

  app.delete(
    '/automation/subscribe',
    {
      config: { scope: 'webhooks:write' },
      attachValidation: true,
      schema: {
        operationId: 'unsubscribeHook',
        tags: ['hook subscriptions'],
        summary: 'Delete a hook subscription',
        description:
          'Scope webhooks:write. Body: `id` (uuid, required). Response 200: `success` (true). Errors: 400 id is required; 404 Subscription not found.',
        body: unsubscribeBody,
        response: {
          200: z.object({ success: z.literal(true) }),
          ...publicErrorResponses({ body: true }),
          400: text('id is required (missing, or not a UUID)'),
          404: text("Subscription not found (unknown, another team's, or already deleted)"),
        },
      },
      errorHandler: emptyBodyAnswers(ID_REQUIRED),
    },
    async (request) => {
      if (request.validationError) throw textError(400, ID_REQUIRED);
      await answeringRefusals(hookSubscriptionErrors, () =>
        deleteHookSubscription(
          context,
          request.principal.teamId,
          request.body.id,
          requestMetadata(request, { apiKeyId: request.principal.apiKeyId }),
        ),
      );
      return { success: true as const };
    },
  );
}
