import { onboardingsProjection } from '../../projections/onboardings/projection.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { inCommandTransaction } from '../../shared/commands/handle-command.ts';
import { awaitOwnReadModel } from '../../shared/commands/read-your-writes.ts';
import { answeringRefusals } from '../../shared/http/domain-errors.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { cappedTotal } from '../../shared/http/pagination.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import type { CommandMetadata } from '../../shared/commands/handle-command.ts';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { memberMetadata } from '../../shared/http/workspace-request.ts';
import { signedIn } from '../../shared/http/workspace-request.ts';
import { PIN_PATTERN } from './link-secrets.ts';
import {
  commandDeps,
  createOnboarding,
  sendOnboarding,
  updateOnboarding,
  type OnboardingCommandCall,
  type OnboardingRef,
} from './onboarding-commands.ts';
import { onboardingErrors } from './onboarding-errors.ts';
import { runOnboardingCommand, type OnboardingOutcome } from './onboarding-unit-of-work.ts';
import type { ArchiveOnboarding, UnarchiveOnboarding } from './decider/index.ts';
import { getOnboarding } from '../../projections/onboardings/queries.ts';
import { explainUnverified } from '../access/index.ts';
import { reopenOnboarding } from './reopen-onboarding.ts';
import { workspaceListBulkRoutes } from './workspace-list-bulk-routes.ts';
import { listFilters } from './workspace-list-query.ts';
import {
  onboardingUsage,
  searchOnboardings,
  searchTokens,
  workspaceOnboarding,
  workspaceOnboardingItem,
} from '../../projections/onboardings/workspace-queries.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';

/*
 * The team's onboardings in the workspace (every role; the member is the actor). The same
 * commands and send checks as the public API (onboarding-commands.ts), plus reopen and
 * unarchive, which the public API does not offer:
 *
 *   GET   /onboardings?status&assignee&due&archived&limit&offset
 *   GET   /onboardings/usage               this month's count against the plan's limit
 *   POST  /onboardings                     create a draft { client_id, template_id, due_on? }
 *   GET   /onboardings/:id
 *   PATCH /onboardings/:id                 { assigned_to?, due_on? } (null clears)
 *   POST  /onboardings/:id/send            { pin?, force? }
 *   POST  /onboardings/:id/cancel | archive | unarchive
 *   POST  /onboardings/:id/reopen          { pin?, reason?, unlock_approved? } a completed,
 *                                          cancelled or expired one (decision 0077)
 */

const NOT_FOUND = 'Onboarding not found';
const notFound = () => codedError(404, 'target_unavailable', NOT_FOUND);

const pin = z
  .string()
  .regex(PIN_PATTERN, 'pin must be exactly 6 digits')
  .optional()
  .describe('exactly 6 digits; when omitted the previous link’s PIN carries over');
const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'due_on must be a date (YYYY-MM-DD)')
  .describe('a calendar date: the end of that day in the team’s time zone');

const listQuery = listFilters.extend({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  offset: z.coerce.number().int().min(0).default(0),
});

const idParams = z.object({ id: z.string().uuid().describe('onboarding id (uuid)') });
const createBody = z.object({
  client_id: z.string().uuid(),
  template_id: z.string().uuid(),
  due_on: calendarDate.optional(),
});
const patchBody = z
  .object({
    assigned_to: z.string().uuid().nullable().optional().describe('a current member id; null unassigns'),
    due_on: calendarDate.nullable().optional().describe('null clears'),
  })
  .refine((body) => body.assigned_to !== undefined || body.due_on !== undefined, {
    message: 'at least one of assigned_to, due_on is required',
  });
const sendBody = z.object({ pin, force: z.boolean().optional() }).nullish();
/** The longest reason a reopen gives the client. */
export const REOPEN_REASON_MAX = 1000;
const reopenBody = z
  .object({
    pin,
    reason: z
      .string()
      .max(REOPEN_REASON_MAX, `reason must be at most ${REOPEN_REASON_MAX} characters`)
      .optional()
      .describe('why the team reopens it: the reopen email tells the client'),
    unlock_approved: z
      .array(z.string().min(1))
      .max(500)
      .optional()
      .describe(
        'approved answers (field ids) the client may change again; every answer not approved opens anyway',
      ),
  })
  .nullish();

const answer = z.object({ onboarding: workspaceOnboarding });

/** The refusals of the onboarding commands, as the public API answers them. */
const commandRefusals = {
  400: coded('invalid_body, invalid_deadline, invalid_assignee, invalid_payment or payment_not_connected'),
  403: coded(
    'payment_plan_required, sending_paused, email_unverified (the owner has not verified their email yet) or limit_reached (or a workspace refusal)',
  ),
  404: coded('target_unavailable, template_missing or client_scope_missing'),
  409: z
    .object({ error: z.string(), code: z.string() })
    .passthrough()
    .describe(
      'invalid_state, requires_force (exactly error, code, requires_force, retryable), agreement_text_required (details), gallery_template_copy_required or nothing_to_reopen (a reopen that could change no answer)',
    ),
  410: coded('client_erasure_pending'),
  429: coded('recipient_cap_reached'),
};

/** The route options of a command on one onboarding; `extra` is its body schema, if any. */
function manageOptions<S extends object>(operationId: string, summary: string, extra: S) {
  return {
    config: { workspace: { action: 'onboardings.manage' as const } },
    schema: workspaceSchema(
      operationId,
      summary,
      { params: idParams, ...extra },
      { 200: answer, ...commandRefusals },
    ),
  };
}

/** Archive and unarchive: the decider's command on the stream, with no checks before it. */
function lifecycle(
  decide: (ref: OnboardingRef) => Omit<ArchiveOnboarding, 'metadata'> | Omit<UnarchiveOnboarding, 'metadata'>,
): OnboardingCommandCall<OnboardingRef> {
  return (deps, tx, ref, now, metadata) =>
    runOnboardingCommand(
      deps,
      tx,
      ref.onboarding_id,
      () => ({ ...decide(ref), metadata: { now } }),
      metadata,
    );
}

/** What the routes of this file share. */
function workspaceOnboardingKit(context: WorkspaceDeps) {
  const deps = commandDeps(context);

  /** One command in its own transaction, refusals answered, then the read models caught up. */
  async function run(
    request: FastifyRequest,
    work: (tx: PoolClient, metadata: CommandMetadata) => Promise<OnboardingOutcome>,
  ): Promise<OnboardingOutcome> {
    const session = signedIn(request);
    const metadata = memberMetadata(request, session.memberId);
    const outcome = await answeringRefusals(onboardingErrors, () =>
      inCommandTransaction(context, (tx) => work(tx, metadata)),
    );
    await awaitOwnReadModel(context, onboardingsProjection.name, outcome.position);
    return outcome;
  }

  /** The team's onboarding (archived ones too); 404 for another team's, unknown or erased. */
  async function found(request: FastifyRequest, id: string) {
    const onboarding = await workspaceOnboardingOf(signedIn(request).teamId, id);
    if (!onboarding) throw notFound();
    return onboarding;
  }

  async function workspaceOnboardingOf(teamId: string, id: string) {
    const detail = await getOnboarding(context.readPool, context.vault, teamId, id);
    if (!detail) return undefined;
    const [item] = (
      await searchOnboardings(context.readPool, context.vault, teamId, context.clock.now(), { id })
    ).data;
    return item ? { ...item, template_snapshot: detail.template_snapshot } : undefined;
  }

  /**
   * Runs a command on one of the team's onboardings (404 first when it is not the team's)
   * and answers the onboarding as it is then.
   */
  async function act<I extends OnboardingRef>(
    request: FastifyRequest,
    id: string,
    command: OnboardingCommandCall<I>,
    fields: Omit<I, keyof OnboardingRef>,
  ) {
    const { teamId } = signedIn(request);
    await found(request, id);
    await run(request, (tx, metadata) =>
      command(
        deps,
        tx,
        { ...fields, team_id: teamId, onboarding_id: id } as I,
        context.clock.now(),
        metadata,
      ),
    );
    return { onboarding: await found(request, id) };
  }

  /** Says why a send or reopen is refused when the owner's email is not verified yet. */
  const explained = (request: FastifyRequest) => (error: unknown) =>
    explainUnverified(context.pool, signedIn(request).teamId, error);
  return { context, deps, run, found, workspaceOnboardingOf, act, explained };
}

type WorkspaceOnboardingKit = ReturnType<typeof workspaceOnboardingKit>;

/** GET /onboardings */
function getOnboardingsRoute(app: ZodApp, { context }: WorkspaceOnboardingKit) {
  app.get(
    '/onboardings',
    {
      config: { workspace: { action: 'onboardings.read' } },
      schema: workspaceSchema(
        'workspaceListOnboardings',
        "The team's onboardings matching the search and filters, one page in the chosen order, with the total",
        { querystring: listQuery },
        { 200: z.object({ data: z.array(workspaceOnboardingItem), ...cappedTotal }) },
      ),
    },
    async (request) => {
      const { teamId } = signedIn(request);
      const tokens = await searchTokens(context.vault, teamId, request.query.q);
      return searchOnboardings(
        context.readPool,
        context.vault,
        teamId,
        context.clock.now(),
        request.query,
        tokens,
      );
    },
  );
}

/** GET /onboardings/usage */
function getOnboardingsUsageRoute(app: ZodApp, { context }: WorkspaceOnboardingKit) {
  app.get(
    '/onboardings/usage',
    {
      config: { workspace: { action: 'onboardings.read' } },
      schema: workspaceSchema(
        'workspaceGetOnboardingUsage',
        'Onboardings counted this month (first sends and reopens) against the plan’s monthly limit',
        {},
        {
          200: z.object({
            month: z.string().describe('YYYY-MM in the team’s time zone'),
            used: z.number().int(),
            limit: z.union([z.number().int(), z.literal('unlimited')]),
          }),
        },
      ),
    },
    async (request) => onboardingUsage(context.pool, signedIn(request).teamId, context.clock.now()),
  );
}

/** POST /onboardings */
function postOnboardingsRoute(
  app: ZodApp,
  { context, deps, run, workspaceOnboardingOf }: WorkspaceOnboardingKit,
) {
  app.post(
    '/onboardings',
    {
      config: { workspace: { action: 'onboardings.manage' } },
      schema: workspaceSchema(
        'workspaceCreateOnboarding',
        'Create a draft onboarding for a client from a template',
        { body: createBody },
        { 201: answer, ...commandRefusals },
      ),
    },
    async (request, reply) => {
      const { teamId } = signedIn(request);
      let id = '';
      await run(request, async (tx, metadata) => {
        const outcome = await createOnboarding(
          deps,
          tx,
          { team_id: teamId, ...request.body, due_date: request.body.due_on },
          context.clock.now(),
          metadata,
        );
        id = outcome.onboardingId;
        return outcome;
      });
      const onboarding = await workspaceOnboardingOf(teamId, id);
      if (!onboarding) throw notFound();
      return reply.status(201).send({ onboarding });
    },
  );
}

/** GET /onboardings/:id */
function getOnboardingsByIdRoute(app: ZodApp, { found }: WorkspaceOnboardingKit) {
  app.get(
    '/onboardings/:id',
    {
      config: { workspace: { action: 'onboardings.read' } },
      schema: workspaceSchema(
        'workspaceGetOnboarding',
        'An onboarding with its client, template, link state and snapshot',
        { params: idParams },
        { 200: answer, 404: coded('Unknown, erased or another team’s (code target_unavailable)') },
      ),
    },
    async (request) => ({ onboarding: await found(request, request.params.id) }),
  );
}

/** PATCH /onboardings/:id */
function patchOnboardingsByIdRoute(app: ZodApp, { act }: WorkspaceOnboardingKit) {
  app.patch(
    '/onboardings/:id',
    manageOptions('workspaceUpdateOnboarding', 'Assign to a member or unassign; set or clear the due date', {
      body: patchBody,
    }),
    async (request) =>
      act(request, request.params.id, updateOnboarding, {
        due_date: request.body.due_on,
        assigned_to: request.body.assigned_to,
      }),
  );
}

/** POST /onboardings/:id/send */
function postOnboardingsByIdSendRoute(app: ZodApp, { act, explained }: WorkspaceOnboardingKit) {
  app.post(
    '/onboardings/:id/send',
    manageOptions(
      'workspaceSendOnboarding',
      'Send or resend (a new link; 409 requires_force when the client saved an answer in the last 5 minutes)',
      { body: sendBody },
    ),
    async (request) =>
      act(request, request.params.id, sendOnboarding, {
        force: request.body?.force ?? false,
        pin: request.body?.pin,
      }).catch(explained(request)),
  );
}

/** POST /onboardings/:id/cancel */
function postOnboardingsByIdCancelRoute(app: ZodApp, { act }: WorkspaceOnboardingKit) {
  app.post(
    '/onboardings/:id/cancel',
    manageOptions(
      'workspaceCancelOnboarding',
      'Cancel a draft, sent or in-progress onboarding (its link stops working)',
      {},
    ),
    async (request) => act(request, request.params.id, updateOnboarding, { status: 'cancelled' }),
  );
}

/** POST /onboardings/:id/reopen */
function postOnboardingsByIdReopenRoute(app: ZodApp, { act, explained }: WorkspaceOnboardingKit) {
  app.post(
    '/onboardings/:id/reopen',
    manageOptions(
      'workspaceReopenOnboarding',
      'Reopen a completed, cancelled or expired onboarding: a new link and an email with the reason; answers not approved and the approved ones unlocked open again; counts once more against the monthly limit',
      { body: reopenBody },
    ),
    async (request) =>
      act(request, request.params.id, reopenOnboarding, {
        pin: request.body?.pin,
        reason: request.body?.reason,
        unlock_approved: request.body?.unlock_approved,
      }).catch(explained(request)),
  );
}

/** POST /onboardings/:id/archive and /unarchive */
function postOnboardingsByIdLifecycleRoutes(app: ZodApp, { act }: WorkspaceOnboardingKit) {
  const lifecycleRoutes = [
    {
      verb: 'archive',
      operationId: 'workspaceArchiveOnboarding',
      summary: 'Archive: the onboarding leaves the default list and refuses changes until unarchived',
      command: lifecycle(() => ({ type: 'ArchiveOnboarding', data: {} })),
    },
    {
      verb: 'unarchive',
      operationId: 'workspaceUnarchiveOnboarding',
      summary: 'Take an archived onboarding back into the list',
      command: lifecycle(({ team_id }) => ({ type: 'UnarchiveOnboarding', data: { team_id } })),
    },
  ];
  for (const { verb, operationId, summary, command } of lifecycleRoutes) {
    app.post(`/onboardings/:id/${verb}`, manageOptions(operationId, summary, {}), async (request) =>
      act(request, request.params.id, command, {}),
    );
  }
}

export async function workspaceOnboardingRoutes(
  plain: FastifyInstance,
  { context }: { context: WorkspaceDeps },
) {
  const app = zodApp(plain);
  const kit = workspaceOnboardingKit(context);
  getOnboardingsRoute(app, kit);
  getOnboardingsUsageRoute(app, kit);
  postOnboardingsRoute(app, kit);
  getOnboardingsByIdRoute(app, kit);
  patchOnboardingsByIdRoute(app, kit);
  postOnboardingsByIdSendRoute(app, kit);
  postOnboardingsByIdCancelRoute(app, kit);
  postOnboardingsByIdReopenRoute(app, kit);
  postOnboardingsByIdLifecycleRoutes(app, kit);
  workspaceListBulkRoutes(app, context);
}
