import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import type { Platform } from '../../shared/app-deps.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { operatorErrorResponses } from '../../shared/http/operator-schemas.ts';
import { RELAY_CHECKPOINT } from '../../shared/subscriptions/kafka.ts';
import type { RelayHealth } from './relay-health.ts';
import { parkSkippedRelayEvent } from './relay-skip.ts';

export type RelaySkipRouteDeps = Pick<Platform, 'pool'> & { relayHealth?: RelayHealth };

/**
 * POST /admin/v1/relay/skip-event {event_id}: the way on when Kafka refuses an event for
 * good (over the topic's max.message.bytes, say) and the cause cannot be fixed. Only the
 * event this instance's relay is stalled on (its /readyz `relay.event_id`) can be skipped:
 * it is parked in parked_events under the relay's checkpoint name, with the broker's
 * error, and the relay's next retry passes over it. The event stays in the log; it is not
 * on the topic, so Kafka consumers never see it (log consumers still do).
 */
export async function relaySkipRoutes(plain: FastifyInstance, { context }: { context: RelaySkipRouteDeps }) {
  const app = zodApp(plain);
  app.post(
    '/relay/skip-event',
    {
      schema: {
        operationId: 'adminSkipRelayEvent',
        tags: ['operator'],
        summary: 'Skip the event the Kafka relay is stalled on (it is parked, not published)',
        body: z.object({ event_id: z.string().uuid() }).strict(),
        response: {
          200: z.object({
            event_id: z.string().uuid(),
            position: z.string().describe('global log position'),
            event_type: z.string(),
            parked_as: z.string().describe('the relay checkpoint name it is parked under'),
          }),
          ...operatorErrorResponses({ body: true }),
          409: coded('The relay of this instance is not stalled on this event (code relay_not_stalled)'),
        },
      },
    },
    async (request) => {
      const health = context.relayHealth;
      const event = health?.stalled ? health.failingEvent : undefined;
      if (!event || event.id !== request.body.event_id) {
        throw codedError(409, 'relay_not_stalled', 'The relay is not stalled on this event');
      }
      await parkSkippedRelayEvent(context.pool, event, health?.lastError);
      return {
        event_id: event.id,
        position: String(event.position),
        event_type: event.type,
        parked_as: RELAY_CHECKPOINT,
      };
    },
  );
}
