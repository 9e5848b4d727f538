import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { ManualClock } from '../../shared/clock.ts';
import { ApiError } from '../../shared/http/api-error.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { drainWork, type DrainDeps } from './drain.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { operatorErrorResponses } from '../../shared/http/operator-schemas.ts';

/**
 * The operator's test controls (operator-and-portal-api.md):
 * - POST /admin/v1/clock/advance {seconds}: moves the service clock (TEST_CLOCK on only;
 *   otherwise 404 like an unknown path). The clock only moves forward: at most ten years
 *   per call. Timers that fall due run on the scheduler's next pass, or at once with
 *   work/drain.
 * - POST /admin/v1/work/drain: answers 200 once every projection has caught up with the
 *   event log, every consumer has handled every event, and every due pass (timers, hook
 *   deliveries, automation runs, mail) has run until nothing is due by the service clock
 *   (services/app/drain.ts); 503 drain_timeout (retryable) when that does
 *   not happen within 30 seconds.
 */

const MAX_ADVANCE_SECONDS = 10 * 366 * 24 * 3600;

/** What the clock and drain routes use; `Deps`: what the service's due passes need. */
export type ClockAndWorkRouteDeps<Deps> = Pick<Platform, 'clock' | 'settings'> & DrainDeps<Deps>;

export async function clockAndWorkRoutes<Deps>(
  plain: FastifyInstance,
  { context }: { context: Deps & ClockAndWorkRouteDeps<Deps> },
) {
  const app = zodApp(plain);

  app.post(
    '/clock/advance',
    {
      schema: {
        operationId: 'adminAdvanceClock',
        tags: ['operator'],
        summary: 'Move the service clock forward (TEST_CLOCK on only)',
        description: '`seconds`. 200 `now`; only with TEST_CLOCK on, else 404.',
        body: z.object({
          seconds: z.number().finite().min(0).max(MAX_ADVANCE_SECONDS).describe('seconds to move forward'),
        }),
        response: {
          200: z.object({ now: z.string().describe('the service clock after the move, ISO 8601') }),
          ...operatorErrorResponses({ body: true }),
          404: coded('TEST_CLOCK is off (or ADMIN_TOKEN unset): not found'),
        },
      },
    },
    async (request, reply) => {
      const clock = context.clock;
      if (!context.settings.TEST_CLOCK || !(clock instanceof ManualClock)) {
        reply.callNotFound();
        return reply;
      }
      return { now: clock.advance(request.body.seconds).toISOString() };
    },
  );

  app.post(
    '/work/drain',
    {
      schema: {
        operationId: 'adminDrainWork',
        tags: ['operator'],
        summary:
          'Wait until projections and consumers have caught up with the log and every timer due by the service clock has run',
        description:
          "200 once every projection has caught up with the event log, every consumer has handled every event, and every timer and automation pass due by the service's clock has run.",
        response: {
          200: z.object({
            drained: z.literal(true),
            position: z.string().describe('the event log position everything caught up with'),
            handled: z.number().int().describe('timers (and other due work) run by this drain'),
          }),
          ...operatorErrorResponses(),
          503: coded(
            'Did not settle in time (code drain_timeout, retryable); details.pending names what lags',
          ),
        },
      },
    },
    async () => {
      const outcome = await drainWork(context);
      if (!outcome.drained) {
        throw new ApiError(503, 'Work did not settle in time; try again', {
          code: 'drain_timeout',
          retryable: true,
          extra: { details: { pending: outcome.pending } },
        });
      }
      return { drained: true as const, position: String(outcome.position), handled: outcome.handled };
    },
  );
}
