import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { onboardingsProjection } from '../../../projections/onboardings/projection.ts';
import { awaitOwnReadModel } from '../../../shared/commands/read-your-writes.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { coded } from '../../../shared/http/error-schemas.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { memberMetadata, signedIn } from '../../../shared/http/workspace-request.ts';
import { type ZodApp, zodApp } from '../../../shared/http/zod-app.ts';
import { commandDeps } from '../onboarding-commands.ts';
import { claimBulkSend, recordBulkSend, releaseBulkSend, type BulkSendAnswer } from './bulk-send-record.ts';
import { sendToOne } from './send-each.ts';

/*
 * POST /onboardings/bulk-send { template_id, client_ids, due_on?, idempotency_key }
 *
 * Creates and sends one template to each client, each exactly as a manual create and send
 * (send-each.ts); the answer is the summary: per client, sent (with the onboarding) or
 * refused with the code and the reason in words. The same idempotency_key again (a double
 * click) answers the same summary without sending anything (bulk-send-record.ts).
 */

/** Clients one action sends to at most (an import is at most 2,000 rows). */
export const BULK_SEND_MAX = 2000;

const body = z.object({
  template_id: z.string().uuid(),
  client_ids: z.array(z.string().uuid()).min(1).max(BULK_SEND_MAX),
  due_on: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'due_on must be a date (YYYY-MM-DD)')
    .optional()
    .describe('a calendar date: the end of that day in the team’s time zone'),
  idempotency_key: z
    .string()
    .regex(/^[\x21-\x7e]{1,128}$/, 'idempotency_key must be 1 to 128 visible ASCII characters')
    .describe('one per action: a repeat answers the first summary and sends nothing'),
});

const answer = z.object({
  template_id: z.string().uuid(),
  sent: z.number().int(),
  refused: z.number().int(),
  results: z.array(
    z.object({
      client_id: z.string().uuid(),
      onboarding_id: z.string().uuid().nullable(),
      outcome: z.enum(['sent', 'refused']),
      code: z.string().nullable().describe('why it was refused (the manual send’s code), e.g. limit_reached'),
      error: z.string().nullable().describe('the reason in words'),
    }),
  ),
});

const summary = (recorded: BulkSendAnswer) => ({
  ...recorded,
  sent: recorded.results.filter((result) => result.outcome === 'sent').length,
  refused: recorded.results.filter((result) => result.outcome === 'refused').length,
});

function bulkSendRoute(app: ZodApp, context: WorkspaceDeps) {
  const deps = commandDeps(context);
  app.post(
    '/onboardings/bulk-send',
    {
      config: { workspace: { action: 'onboardings.manage' } },
      schema: workspaceSchema(
        'workspaceBulkSendOnboardings',
        'Create and send one template to each of many clients, each with every check of a manual send (monthly limit, new-recipient cap, payment readiness); the summary names each refusal with its reason; idempotent by idempotency_key',
        { body },
        { 200: answer, 409: coded('bulk_send_running: the same action is still running') },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const {
        template_id: templateId,
        client_ids: clientIds,
        due_on: dueOn,
        idempotency_key: key,
      } = request.body;
      const claim = await claimBulkSend(
        context.pool,
        session.teamId,
        key,
        session.memberId,
        context.clock.now(),
      );
      if (claim === 'busy')
        throw codedError(409, 'bulk_send_running', 'This send is still running: try again in a minute');
      if (claim !== 'run') return summary(claim);
      const input = { teamId: session.teamId, key, templateId, dueOn };
      const results = [];
      let position: bigint | undefined;
      try {
        for (const clientId of new Set(clientIds)) {
          const { position: at, ...result } = await sendToOne(
            deps,
            input,
            clientId,
            context.clock.now(),
            () => memberMetadata(request, session.memberId),
          );
          if (at !== undefined) position = at;
          results.push(result);
        }
      } catch (error) {
        await releaseBulkSend(context.pool, session.teamId, key);
        throw error;
      }
      const recorded = { template_id: templateId, results };
      await recordBulkSend(context.pool, session.teamId, key, recorded);
      await awaitOwnReadModel(context, onboardingsProjection.name, position);
      return summary(recorded);
    },
  );
}

export async function bulkSendRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  bulkSendRoute(zodApp(plain), context);
}
