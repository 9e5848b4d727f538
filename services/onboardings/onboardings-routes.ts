import { onboardingsProjection } from '../../projections/onboardings/projection.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import type { CommandMetadata } from '../../shared/commands/handle-command.ts';
import { awaitOwnReadModel } from '../../shared/commands/read-your-writes.ts';
import { trustedSuccessSerializer } from '../../shared/http/trusted-success-serializer.ts';
import {
  idempotencyKeyOf,
  runIdempotent,
  type CommandAnswer,
  type IdempotencyRequest,
  type IdempotentOperation,
} from '../../shared/commands/idempotency.ts';
import { forgetPlannedCreate, plannedCreate, recordPlannedCreate } from './create-intents.ts';
import {
  commandDeps,
  createOnboarding,
  sendOnboarding,
  updateOnboarding,
  type CreatePlan,
  type OnboardingCommandCall,
  type OnboardingRef,
} from './onboarding-commands.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import type { OnboardingOutcome } from './onboarding-unit-of-work.ts';
import type { Onboarding } from './decider/index.ts';
import { ONBOARDING_STATUSES } from './onboarding-events.ts';
import { PIN_PATTERN } from './link-secrets.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { offsetPaginationQuery } from '../../shared/http/pagination.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { onboardingErrorAnswer } from './onboarding-errors.ts';
import { requestMetadata } from '../../shared/http/request-metadata.ts';
import { publicSchema, type PublicOperation } from '../../shared/http/route-schema.ts';
import {
  ARCHIVED_FILTERS,
  getOnboarding,
  listOnboardings,
  onboardingDetail,
  onboardingListItem,
} from '../../projections/onboardings/queries.ts';
import { SECRET_ANSWER } from '../../shared/http/secret-answer.ts';

export type OnboardingsRouteDeps = Pick<
  Platform,
  'pool' | 'eventStore' | 'settings' | 'projections' | 'logger' | 'readPool' | 'clock' | 'vault'
>;

/*
 * Onboardings (client-onboarding-api.md: Onboarding; GET/POST /api/v1/onboardings,
 * GET/PATCH /api/v1/onboardings/:id, POST /api/v1/onboardings/:id/send; Idempotent
 * retries). Body and query are validated before the scope check (400 invalid_body first).
 * Commands append events (services/onboardings/onboarding-commands.ts) and answer once the read
 * model has them; lists and gets read the projection.
 */

const NOT_FOUND = 'Onboarding not found';

const deadlineInput = z
  .unknown()
  .optional()
  .describe('YYYY-MM-DD (the end of that day in the team time zone) or an ISO 8601 timestamp with offset');

const createBody = z.object({
  template_id: z.string().uuid().describe("the team's own template or a gallery template"),
  client_id: z.string().uuid(),
  due_date: deadlineInput,
  expires_at: deadlineInput.describe('link expiry; same formats as due_date; null for none'),
});

const patchBody = z
  .object({
    status: z.enum(['cancelled', 'in_progress']).optional(),
    due_date: deadlineInput.describe('same formats as on create; null clears'),
    assigned_to: z.string().nullable().optional().describe('a current team member id; null or "" unassigns'),
  })
  .refine((body) => body.status !== undefined || 'due_date' in body || body.assigned_to !== undefined, {
    message: 'at least one of status, due_date, assigned_to is required',
  });

const sendBody = z
  .object({
    force: z.boolean().optional().describe('bypasses the active-client check'),
    pin: z
      .string()
      .regex(PIN_PATTERN, 'pin must be exactly 6 digits')
      .nullable()
      .optional()
      .describe("exactly 6 digits; when omitted the previous link's PIN carries over"),
  })
  // fastify validates a missing body as null.
  .nullish();

const listQuery = offsetPaginationQuery.extend({
  status: z.enum(ONBOARDING_STATUSES).optional(),
  client_id: z.string().uuid().optional(),
  archived: z
    .enum(ARCHIVED_FILTERS)
    .default('false')
    .describe('false (default): without archived; only: archived only; true or all: both'),
});

const idParams = z.object({ id: z.string().uuid().describe('onboarding id (uuid)') });

const deadlineFields = {
  due_date: z.string().nullable(),
  due_on: z.string().nullable(),
  due_timezone: z.string().nullable(),
};

export const createdOnboarding = z.object({
  id: z.string().uuid(),
  status: z.enum(ONBOARDING_STATUSES),
  progress_pct: z.number().int(),
  created_at: z.string(),
  ...deadlineFields,
  expires_at: z.string().nullable(),
  assigned_to: z.string().nullable(),
  token: z.string().describe('client access token, 64 hex characters; returned on create only'),
});

export const patchedOnboarding = z.object({
  id: z.string().uuid(),
  status: z.enum(ONBOARDING_STATUSES),
  progress_pct: z.number().int(),
  ...deadlineFields,
  assigned_to: z.string().nullable(),
});

/** Full error bodies, plus `details` / `requires_force` where a code has them. */
const codedOrForce = z
  .object({ error: z.string(), code: z.string() })
  .passthrough()
  .describe('Full error body; requires_force has exactly error, code, requires_force, retryable');

const commandErrors = (described: Record<number, string>) =>
  Object.fromEntries(Object.entries(described).map(([status, text]) => [status, coded(text)]));

/** Documents the header; its rules are checked in the handler (400 invalid_idempotency_key). */
const idempotencyHeaders = z
  .object({
    'idempotency-key': z
      .string()
      .optional()
      .describe('1 to 128 visible ASCII characters (no spaces); same value and body within 24 hours replays'),
  })
  .passthrough();

/** The API key's secret from the Authorization header (the idempotency answer's encryption key). */
function bearerSecret(request: FastifyRequest): string {
  const match = /^Bearer\s+(.+)$/i.exec(request.headers.authorization?.trim() ?? '');
  return match?.[1]?.trim() ?? '';
}

function patchView(onboarding: Onboarding) {
  return {
    id: onboarding.id,
    status: onboarding.status,
    progress_pct: onboarding.progress_pct,
    due_date: onboarding.due?.due_date ?? null,
    due_on: onboarding.due?.due_on ?? null,
    due_timezone: onboarding.due?.due_timezone ?? null,
    assigned_to: onboarding.assigned_to,
  };
}

/** A read (scope onboardings:read): 400 invalid_body for a malformed query or id. */
function readOptions<S extends object, A extends object>(operation: PublicOperation, parts: S, answers: A) {
  return {
    config: { scope: 'onboardings:read' as const, validateBeforeScope: true },
    serializerCompiler: trustedSuccessSerializer, // the answer is built in schema order
    schema: publicSchema('onboardings', operation, parts, answers, { validation: 'invalid_body' }),
  };
}

/**
 * A command (scope onboardings:write, Idempotency-Key): the command's refusals in `refused`
 * (texts by status), its answer and its own 409 (and 429) in `answers`.
 */
function commandOptions<S extends object, A extends object>(
  operation: PublicOperation,
  parts: S,
  answers: A,
  refused: Record<number, string>,
) {
  return {
    config: { scope: 'onboardings:write' as const, validateBeforeScope: true, idempotent: true },
    schema: publicSchema(
      'onboardings',
      operation,
      { headers: idempotencyHeaders, ...parts },
      { ...commandErrors(refused), ...answers },
      { validation: 'invalid_body', body: true },
    ),
  };
}

/** What the public onboarding routes share: the command deps and the idempotent command runner. */
function onboardingCommandKit(context: OnboardingsRouteDeps) {
  const deps = commandDeps(context);

  /** With EventStoreDB and an Idempotency-Key, a create's plan is kept before its append (./create-intents.ts). */
  async function createPlan(
    tx: PoolClient,
    idempotency: IdempotencyRequest | undefined,
  ): Promise<CreatePlan> {
    if (!idempotency || context.eventStore.kind !== 'eventstoredb') return {};
    const now = context.clock.now();
    return {
      planned: await plannedCreate(tx, idempotency, now),
      keep: (planned, own) => recordPlannedCreate(own, idempotency, planned, now),
      forget: (tx) => forgetPlannedCreate(tx, idempotency),
    };
  }

  /**
   * Runs a command once per Idempotency-Key (or every time without one) and answers with
   * its status and body, after the read model has its events (read your writes).
   * `prepare` runs in the command's transaction before `run`, outside its refusals: a
   * refusal of `prepare` (another body under a planned create's key) is not kept as the
   * key's answer.
   */
  async function command<Prepared = undefined>(
    request: FastifyRequest,
    reply: FastifyReply,
    operation: IdempotentOperation,
    onboardingId: string | null,
    run: (
      tx: PoolClient,
      metadata: CommandMetadata,
      prepared: Prepared | undefined,
    ) => Promise<CommandAnswer>,
    prepare?: (tx: PoolClient, idempotency: IdempotencyRequest | undefined) => Promise<Prepared>,
  ) {
    const key = idempotencyKeyOf(request.headers['idempotency-key']);
    const { principal } = request;
    const metadata = requestMetadata(request, { apiKeyId: principal.apiKeyId, idempotencyKey: key });
    const idempotency: IdempotencyRequest | undefined =
      key === undefined
        ? undefined
        : {
            apiKeyId: principal.apiKeyId,
            apiKeySecret: bearerSecret(request),
            operation,
            key,
            onboardingId,
            body: request.body,
          };
    const answer = await runIdempotent(context, idempotency, async (tx) => {
      const prepared = await prepare?.(tx, idempotency);
      try {
        return await run(tx, metadata, prepared);
      } catch (error) {
        return onboardingErrorAnswer(error, request.id);
      }
    });
    await awaitOwnReadModel(context, onboardingsProjection.name, answer.position);
    if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
    return reply.status(answer.status).send(answer.body);
  }

  /**
   * A command on the onboarding `id` of the API key's team, run as `command` runs it;
   * `answer` makes the 200's body of its outcome.
   */
  function commandOn<I extends OnboardingRef>(
    request: FastifyRequest,
    reply: FastifyReply,
    operation: IdempotentOperation,
    id: string,
    call: OnboardingCommandCall<I>,
    fields: Omit<I, keyof OnboardingRef>,
    answer: (outcome: OnboardingOutcome, metadata: CommandMetadata) => unknown,
  ) {
    return command(request, reply, operation, id, async (tx, metadata) => {
      const input = { team_id: request.principal.teamId, onboarding_id: id, ...fields } as I;
      const outcome = await call(deps, tx, input, context.clock.now(), metadata);
      return { status: 200, position: outcome.position, body: answer(outcome, metadata) };
    });
  }
  return { context, deps, createPlan, command, commandOn };
}

type OnboardingCommandKit = ReturnType<typeof onboardingCommandKit>;

/** GET /onboardings */
function getOnboardingsRoute(app: ZodApp, { context }: OnboardingCommandKit) {
  app.get(
    '/onboardings',
    readOptions(
      {
        operationId: 'listOnboardings',
        summary: 'List onboardings, newest first',
        description:
          'Scope onboardings:read. Query: limit, offset, `status` (draft, sent, in_progress, completed, cancelled, expired; other values 400 invalid_body), `client_id`, `archived` (false default, true, only, all). Onboardings of erased clients are never listed. Response 200: `onboardings` and `total`.',
      },
      { querystring: listQuery },
      { 200: z.object({ onboardings: z.array(onboardingListItem), total: z.number().int() }) },
    ),
    async (request) =>
      listOnboardings(context.readPool, context.vault, request.principal.teamId, request.query),
  );
}

/** GET /onboardings/:id */
function getOnboardingsByIdRoute(app: ZodApp, { context }: OnboardingCommandKit) {
  app.get(
    '/onboardings/:id',
    readOptions(
      {
        operationId: 'getOnboarding',
        summary: 'Get an onboarding with its template snapshot',
        description:
          'Scope onboardings:read. Response 200: `onboarding` including `template_snapshot`. Unknown ID: 404 target_unavailable. Non-UUID ID: 400 invalid_body.',
      },
      { params: idParams },
      {
        200: z.object({ onboarding: onboardingDetail }),
        404: coded("Unknown id or another team's onboarding (code target_unavailable)"),
      },
    ),
    async (request) => {
      const onboarding = await getOnboarding(
        context.readPool,
        context.vault,
        request.principal.teamId,
        request.params.id,
      );
      if (!onboarding) throw codedError(404, 'target_unavailable', NOT_FOUND);
      return { onboarding };
    },
  );
}

/** POST /onboardings */
function postOnboardingsRoute(app: ZodApp, { context, deps, createPlan, command }: OnboardingCommandKit) {
  app.post(
    '/onboardings',
    {
      ...commandOptions(
        {
          operationId: 'createOnboarding',
          summary: 'Create an onboarding (a draft) for a client from a template',
          description:
            'Scope onboardings:write. Body: `template_id` (uuid, required; own or gallery template), `client_id` (uuid, required), `due_date` (optional; YYYY-MM-DD or a timestamp with offset), `expires_at` (optional or null; same formats). Response 201: `onboarding` (status draft). Errors (code): 400 invalid_body; 400 invalid_deadline; 404 template_missing; 404 client_scope_missing; 409 gallery_template_copy_required (`details` holds `field_id` and `step_id`); 410 client_erasure_pending. Accepts Idempotency-Key (1 to 128 visible ASCII characters; a replay within 24 hours answers the original result with Idempotent-Replayed: true).',
        },
        { body: createBody },
        {
          201: z.object({ onboarding: createdOnboarding }),
          409: codedOrForce.describe(
            'gallery_template_copy_required (details.field_id, details.step_id) or external_command_conflict',
          ),
        },
        {
          400: 'invalid_body, invalid_deadline or invalid_idempotency_key',
          404: 'template_missing or client_scope_missing',
          410: 'client_erasure_pending',
        },
      ),
      config: { ...SECRET_ANSWER, scope: 'onboardings:write', validateBeforeScope: true, idempotent: true },
    },
    async (request, reply) =>
      command<CreatePlan>(
        request,
        reply,
        'create',
        null,
        async (tx, metadata, plan) => {
          const outcome = await createOnboarding(
            deps,
            tx,
            { team_id: request.principal.teamId, ...request.body },
            context.clock.now(),
            metadata,
            plan,
          );
          const created = outcome.events[0];
          if (created?.type !== 'onboarding_created') throw new Error('create decided no onboarding_created');
          const { data } = created;
          return {
            status: 201,
            position: outcome.position,
            body: {
              onboarding: {
                id: data.onboarding_id,
                status: 'draft',
                progress_pct: 0,
                created_at: data.created_at,
                due_date: data.due_date,
                due_on: data.due_on,
                due_timezone: data.due_timezone,
                expires_at: data.expires_at,
                assigned_to: null,
                token: outcome.token,
              },
            },
          };
        },
        // With EventStoreDB a retry reuses the plan of an attempt whose commit was lost.
        (tx, idempotency) => createPlan(tx, idempotency),
      ),
  );
}

/** PATCH /onboardings/:id */
function patchOnboardingsByIdRoute(app: ZodApp, { commandOn }: OnboardingCommandKit) {
  app.patch(
    '/onboardings/:id',
    commandOptions(
      {
        operationId: 'updateOnboarding',
        summary: 'Update status (cancelled or in_progress), due date or assignee',
        description:
          'Scope onboardings:write. Body (at least one field): `status` (cancelled or in_progress), `due_date` (same formats; null clears), `assigned_to` (team member ID; null or empty string unassigns). Response 200: `onboarding`. Errors (code): 400 invalid_body; 400 invalid_assignee; 400 invalid_deadline; 404 target_unavailable (not found, or archived); 409 invalid_state. Accepts Idempotency-Key.',
      },
      { params: idParams, body: patchBody },
      {
        200: z.object({ onboarding: patchedOnboarding }),
        409: codedOrForce.describe('invalid_state or external_command_conflict'),
      },
      {
        400: 'invalid_body, invalid_assignee, invalid_deadline or invalid_idempotency_key',
        404: "target_unavailable (unknown, another team's, or archived)",
      },
    ),
    async (request, reply) => {
      const { body } = request;
      return commandOn(
        request,
        reply,
        'update',
        request.params.id,
        updateOnboarding,
        {
          status: body.status,
          due_date: 'due_date' in body ? (body.due_date ?? null) : undefined,
          assigned_to: body.assigned_to,
        },
        (outcome) => {
          if (outcome.state.status === 'absent') throw new Error('update of an absent onboarding');
          return { onboarding: patchView(outcome.state) };
        },
      );
    },
  );
}

/** POST /onboardings/:id/send */
function postOnboardingsByIdSendRoute(app: ZodApp, { commandOn }: OnboardingCommandKit) {
  app.post(
    '/onboardings/:id/send',
    commandOptions(
      {
        operationId: 'sendOnboarding',
        summary: 'Send or resend: a new client link, the invite email queued, reminders scheduled',
        description:
          "Scope onboardings:write. Sends or resends: issues a new client link, deactivates prior tokens, queues the invite email, schedules reminders, emits onboarding.sent. The onboarding must be draft, sent or in_progress and not archived. Optional body: `force` (bypasses the active-client check), `pin` (exactly 6 digits; when omitted, the previous link's PIN carries over). Response 200: `success`, `queued`, `command_id`. Checks, the first failing decides: 400 invalid_payment; 403 payment_plan_required; 400 payment_not_connected; 409 agreement_text_required; 403 sending_paused or 429 recipient_cap_reached; 403 limit_reached. Other errors: 400 invalid_body; 404 target_unavailable; 404 client_scope_missing; 409 requires_force; 409 invalid_state. Accepts Idempotency-Key.",
      },
      { params: idParams, body: sendBody },
      {
        200: z.object({
          success: z.literal(true),
          queued: z.boolean().describe('the invite email was queued'),
          command_id: z.string().uuid().describe('identifies this send'),
        }),
        409: codedOrForce.describe(
          'invalid_state, requires_force, agreement_text_required (details) or external_command_conflict',
        ),
        429: z
          .object({ error: z.string(), code: z.string() })
          .passthrough()
          .describe('rate_limited (error and code only, Retry-After) or recipient_cap_reached (full body)'),
      },
      {
        400: 'invalid_body, invalid_payment (details), payment_not_connected or invalid_idempotency_key',
        403: 'api_key_scope_denied, api_key_plan_required, payment_plan_required, sending_paused or limit_reached',
        404: "target_unavailable (unknown, another team's, or archived) or client_scope_missing",
        410: 'client_erasure_pending',
      },
    ),
    async (request, reply) => {
      const body = request.body ?? {};
      return commandOn(
        request,
        reply,
        'send',
        request.params.id,
        sendOnboarding,
        { force: body.force ?? false, pin: body.pin ?? undefined },
        (_outcome, metadata) => ({ success: true, queued: true, command_id: metadata.command_id }),
      );
    },
  );
}

export async function onboardingsRoutes(
  plain: FastifyInstance,
  { context }: { context: OnboardingsRouteDeps },
) {
  const app = zodApp(plain);
  // POST .../send takes an optional body: an empty JSON body is no body.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && request.method === 'POST' && request.url.endsWith('/send'))
      return done(null, undefined);
    return defaultJson(request, body as string, done);
  });
  const kit = onboardingCommandKit(context);
  getOnboardingsRoute(app, kit);
  getOnboardingsByIdRoute(app, kit);
  postOnboardingsRoute(app, kit);
  patchOnboardingsByIdRoute(app, kit);
  postOnboardingsByIdSendRoute(app, kit);
}
