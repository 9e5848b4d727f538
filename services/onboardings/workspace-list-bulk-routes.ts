import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { onboardingsProjection } from '../../projections/onboardings/projection.ts';
import { visibleOnboardingExists } from '../../projections/onboardings/queries.ts';
import { exportOnboardings, searchTokens } from '../../projections/onboardings/workspace-queries.ts';
import { inCommandTransaction } from '../../shared/commands/handle-command.ts';
import { awaitOwnReadModel } from '../../shared/commands/read-your-writes.ts';
import { ApiError } from '../../shared/http/api-error.ts';
import { answeringRefusals } from '../../shared/http/domain-errors.ts';
import { downloadHeaders } from '../../shared/http/download-headers.ts';
import { binaryResponse } from '../../shared/http/openapi-3-1-schema.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { memberMetadata, signedIn } from '../../shared/http/workspace-request.ts';
import type { ZodApp } from '../../shared/http/zod-app.ts';
import { onboardingsCsvChunks } from './list-csv.ts';
import { commandDeps, updateOnboarding } from './onboarding-commands.ts';
import { onboardingErrors } from './onboarding-errors.ts';
import { runOnboardingCommand, type OnboardingOutcome } from './onboarding-unit-of-work.ts';
import { remindClient } from './workspace-link-routes.ts';
import { listFilters } from './workspace-list-query.ts';

/*
 * The onboardings list's actions on many rows (docs/decisions/0085-bulk-actions-and-export.md):
 *
 *   POST /onboardings/bulk     { action: remind | archive | assign, ids, assigned_to?, message? }
 *   GET  /onboardings/export   the CSV of every row the list's search and filters match
 *
 * A bulk action runs the per-onboarding command on each id in turn, each in its own
 * transaction with the same checks as its single route (the reminder's 3 in 24 hours is the
 * decider's, under the stream's lock); one refusal never stops the others, and the answer
 * names what was done and what was refused, with the refusal's code and words.
 */

export const BULK_ACTIONS = ['remind', 'archive', 'assign'] as const;
/** Rows one bulk action takes at most (a list page is at most 100; a whole view of 200 fits). */
export const BULK_MAX = 500;
/** Rows one export reads per fetch of its cursor. */
const EXPORT_PAGE = 1000;

const bulkBody = z.object({
  action: z.enum(BULK_ACTIONS),
  ids: z.array(z.string().uuid()).min(1).max(BULK_MAX),
  assigned_to: z
    .string()
    .uuid()
    .nullable()
    .optional()
    .describe('assign: a current member id; null unassigns'),
  message: z.string().trim().max(1000).nullish().describe('remind: a personal message, only in the email'),
});

const bulkAnswer = z.object({
  done: z.array(z.string().uuid()),
  refused: z.array(z.object({ id: z.string().uuid(), code: z.string(), error: z.string() })),
});

type BulkBody = z.infer<typeof bulkBody>;

/** The command of one row, run with the member as actor; refusals thrown as the API answers them. */
function rowCommand(context: WorkspaceDeps, request: FastifyRequest, body: BulkBody) {
  const deps = commandDeps(context);
  const session = signedIn(request);
  const inTransaction = (work: Parameters<typeof inCommandTransaction<OnboardingOutcome>>[1]) =>
    answeringRefusals(onboardingErrors, () => inCommandTransaction(context, work));
  return async (id: string): Promise<OnboardingOutcome> => {
    const metadata = memberMetadata(request, session.memberId);
    const now = context.clock.now();
    if (body.action === 'remind') return remindClient(context, request, id, body.message || null);
    if (body.action === 'archive') {
      return inTransaction((tx) =>
        runOnboardingCommand(
          deps,
          tx,
          id,
          () => ({ type: 'ArchiveOnboarding', data: {}, metadata: { now } }),
          metadata,
        ),
      );
    }
    return inTransaction((tx) =>
      updateOnboarding(
        deps,
        tx,
        { team_id: session.teamId, onboarding_id: id, assigned_to: body.assigned_to ?? null },
        now,
        metadata,
      ),
    );
  };
}

const refusalOf = (id: string, error: unknown) => {
  if (!(error instanceof ApiError)) throw error;
  return { id, code: error.options.code ?? 'refused', error: error.text };
};

/** POST /onboardings/bulk */
function postBulkRoute(app: ZodApp, context: WorkspaceDeps) {
  app.post(
    '/onboardings/bulk',
    {
      config: { workspace: { action: 'onboardings.manage' } },
      schema: workspaceSchema(
        'workspaceBulkOnboardings',
        `Send a reminder, archive or assign each of up to ${BULK_MAX} onboardings, each with its single action's checks; the answer lists what was done and each refusal with its code and words (another team's or an unknown id: target_unavailable)`,
        { body: bulkBody },
        { 200: bulkAnswer },
      ),
    },
    async (request) => {
      const { teamId } = signedIn(request);
      const run = rowCommand(context, request, request.body);
      const done: string[] = [];
      const refused: z.infer<typeof bulkAnswer>['refused'] = [];
      let position: bigint | undefined;
      for (const id of new Set(request.body.ids)) {
        // Another team's id is refused before any command, as the single routes' 404.
        if (!(await visibleOnboardingExists(context.readPool, teamId, id))) {
          refused.push({
            id,
            code: 'target_unavailable',
            error: 'Unknown onboarding, another team’s, or its client was erased',
          });
          continue;
        }
        try {
          const outcome = await run(id);
          if (outcome.position !== undefined) position = outcome.position;
          done.push(id);
        } catch (error) {
          refused.push(refusalOf(id, error));
        }
      }
      await awaitOwnReadModel(context, onboardingsProjection.name, position);
      return { done, refused };
    },
  );
}

/** GET /onboardings/export */
function getExportRoute(app: ZodApp, context: WorkspaceDeps) {
  app.get(
    '/onboardings/export',
    {
      config: { workspace: { action: 'onboardings.read' } },
      schema: workspaceSchema(
        'workspaceExportOnboardings',
        'The CSV (text/csv, UTF-8, CRLF) of every onboarding the list’s search and filters match, in its order: not only one page; cells that start like a formula are prefixed with an apostrophe',
        { querystring: listFilters },
        { 200: binaryResponse('text/csv: a header row, then one row per onboarding') },
      ),
    },
    async (request, reply) => {
      const { teamId } = signedIn(request);
      const tokens = await searchTokens(context.vault, teamId, request.query.q);
      const now = context.clock.now();
      const pages = exportOnboardings(
        context.readPool,
        context.vault,
        teamId,
        now,
        request.query,
        tokens,
        EXPORT_PAGE,
      );
      // The first page is read before the answer starts, so a failing read still answers an error.
      const first = await pages.next();
      return reply
        .headers(downloadHeaders(`onboardings-${now.toISOString().slice(0, 10)}.csv`))
        .type('text/csv; charset=utf-8')
        .send(Readable.from(onboardingsCsvChunks(first.done ? [] : first.value, pages)));
    },
  );
}

export function workspaceListBulkRoutes(app: ZodApp, context: WorkspaceDeps) {
  postBulkRoute(app, context);
  getExportRoute(app, context);
}
