import type { FastifyInstance } from 'fastify';
import { zodApp } from '../http/zod-app.ts';
import { z } from 'zod';
import { countParked, listParked, totalOf, type ParkedEventRow } from './parked-events.ts';
import { RETRY_LIMIT } from './retry-parked.ts';
import type { Platform } from '../app-deps.ts';
import { coded } from '../http/error-schemas.ts';
import { operatorErrorResponses } from '../http/operator-schemas.ts';

export type ParkedEventsRouteDeps = Pick<Platform, 'pool' | 'projections'>;

/**
 * Parked events: events a projection cannot apply (its SQL or code fails on them), set
 * aside for that projection so it and every other projection go on (shared/projections/runner.ts).
 *
 * - GET /admin/v1/parked-events?projection=&limit=: the parked events, oldest position
 *   first, and how many there are. Each names the projection, the event (id, position,
 *   type) and the error (SQLSTATE code and a message with every quoted value masked); no
 *   event data and no row values.
 * - POST /admin/v1/parked-events/retry {projection?, event_ids?}: after a fix, applies the
 *   parked events again (all, one projection's, or the given event ids; at most 1000 per
 *   call, oldest first). An applied event leaves the list; one that still fails stays with
 *   its newest error. Answers 200 with each event's outcome.
 */

export const parkedEventSchema = z.object({
  projection: z.string(),
  event_id: z.string().uuid(),
  position: z.string().describe('global log position'),
  event_type: z.string(),
  error_code: z.string().nullable().describe('SQLSTATE of a database error (22P05, 22008, 22003, ...)'),
  error_message: z.string().describe('the error message, quoted values masked'),
  attempts: z.number().int().describe('times the event failed (the first application and each retry)'),
  parked_at: z.string(),
  last_attempt_at: z.string(),
});

const retryResultSchema = parkedEventSchema.extend({
  outcome: z
    .enum(['applied', 'still_failing', 'gone'])
    .describe('gone: retried by someone else meanwhile, or not found in the log'),
});

const asBody = (row: ParkedEventRow): z.infer<typeof parkedEventSchema> => ({
  projection: row.projection,
  event_id: row.eventId,
  position: String(row.position),
  event_type: row.eventType,
  error_code: row.error.code ?? null,
  error_message: row.error.message,
  attempts: row.attempts,
  parked_at: row.parkedAt.toISOString(),
  last_attempt_at: row.lastAttemptAt.toISOString(),
});

export async function parkedEventsRoutes(
  plain: FastifyInstance,
  { context }: { context: ParkedEventsRouteDeps },
) {
  const app = zodApp(plain);
  const names = () => context.projections.projectionNames;
  const projectionName = z
    .string()
    .refine((name) => names().includes(name), { message: 'unknown projection' })
    .describe('a projection name (as in checkpoints and /readyz parked_by_projection)');

  app.get(
    '/parked-events',
    {
      schema: {
        operationId: 'adminListParkedEvents',
        tags: ['operator'],
        summary: 'Events a projection cannot apply, parked for it, oldest first',
        querystring: z.object({
          projection: projectionName.optional(),
          limit: z.coerce.number().int().min(1).max(1000).default(100),
        }),
        response: {
          200: z.object({
            parked_events: z.array(parkedEventSchema),
            total: z
              .number()
              .int()
              .describe('parked events matching the filter (all of them, not only listed)'),
          }),
          ...operatorErrorResponses(),
          400: coded('Unknown projection or limit not from 1 to 1000 (code invalid_body)'),
        },
      },
    },
    async (request) => {
      const projections = request.query.projection ? [request.query.projection] : names();
      const [rows, counts] = await Promise.all([
        listParked(context.pool, { projections, limit: request.query.limit }),
        countParked(context.pool, projections),
      ]);
      return { parked_events: rows.map(asBody), total: totalOf(counts) };
    },
  );

  app.post(
    '/parked-events/retry',
    {
      schema: {
        operationId: 'adminRetryParkedEvents',
        tags: ['operator'],
        summary: 'Apply parked events again after a fix; applied ones leave the list',
        body: z
          .object({
            projection: projectionName.optional(),
            event_ids: z.array(z.string().uuid()).min(1).max(RETRY_LIMIT).optional(),
          })
          .strict()
          .nullish()
          .describe('no body: every parked event'),
        response: {
          200: z.object({
            results: z.array(retryResultSchema).describe('one per retried event, oldest first'),
            applied: z.number().int(),
            still_failing: z.number().int(),
            remaining: z.number().int().describe('parked events left (all projections)'),
          }),
          ...operatorErrorResponses({ body: true }),
        },
      },
    },
    async (request) => {
      const outcomes = await context.projections.retryParked({
        projection: request.body?.projection,
        eventIds: request.body?.event_ids,
      });
      const results = outcomes.map((outcome) => {
        const result = { ...asBody(outcome.parked), outcome: outcome.outcome };
        if (outcome.outcome !== 'still_failing') return result;
        return {
          ...result,
          error_code: outcome.error.code ?? null,
          error_message: outcome.error.message,
          attempts: outcome.parked.attempts + 1,
        };
      });
      const count = (kind: string) => results.filter((result) => result.outcome === kind).length;
      return {
        results,
        applied: count('applied'),
        still_failing: count('still_failing'),
        remaining: totalOf(await countParked(context.pool, names())),
      };
    },
  );
}
