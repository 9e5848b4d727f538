import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { PUBLIC_EVENT_TYPES } from './audit-event-types.ts';
import { eventsLimitQuery } from '../../shared/http/pagination.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { publicSchema } from '../../shared/http/route-schema.ts';
import { awaitAsyncReadModels } from '../../shared/commands/read-your-writes.ts';
import { teamAuditEvents } from '../../projections/audit-events/queries.ts';

export type EventsRouteDeps = Pick<Platform, 'readPool' | 'projections' | 'eventStore' | 'logger'>;

/*
 * GET /api/v1/events (client-onboarding-api.md: Event; GET /api/v1/events): the team's
 * most recent audit events, newest first, no total and no cursor. Read from the
 * audit_events read model (projections/audit-events/); which domain events
 * appear, and under which name, is services/events/audit-event-types.ts.
 */

export const UNKNOWN_EVENT_TYPE = `Unknown event type. Allowed values: ${PUBLIC_EVENT_TYPES.join(', ')}`;

const eventsQuery = eventsLimitQuery.extend({
  type: z
    .enum(PUBLIC_EVENT_TYPES, { errorMap: () => ({ message: UNKNOWN_EVENT_TYPE }) })
    .optional()
    .describe('one of the eight public event types; without it every audit event is listed'),
});

export const auditEventSchema = z.object({
  id: z.string().uuid().describe('the id of the domain event'),
  type: z.string().describe('a public event name, or an internal name such as client_created'),
  timestamp: z.string().describe('ISO 8601'),
  onboarding_id: z.string().uuid().nullable().describe('null for events that concern no onboarding'),
  data: z.record(z.unknown()).describe("the event's audit details (not the webhook payload)"),
});

export async function eventsRoutes(plain: FastifyInstance, { context }: { context: EventsRouteDeps }) {
  const app = zodApp(plain);

  app.get(
    '/events',
    {
      config: { scope: 'events:read' },
      schema: publicSchema(
        'events',
        {
          operationId: 'listEvents',
          summary: "The team's most recent audit events, newest first",
          description:
            "Scope events:read. Query: `limit` (1 to 100, default 25), `type` (one of the event types). Returns the team's most recent audit events, newest first. No cursor and no since parameter. Response 200: `events`. Error: 400 with text beginning Unknown event type and listing the allowed values.",
        },
        { querystring: eventsQuery },
        { 200: z.object({ events: z.array(auditEventSchema) }) },
      ),
    },
    async (request) => {
      // The feed is asynchronous (an inline feed would commit out of position order), so
      // the read waits for the events committed before it (read your writes).
      await awaitAsyncReadModels(context);
      const { limit, type } = request.query;
      const rows = await teamAuditEvents(context.readPool, request.principal.teamId, { limit, type });
      return {
        events: rows.map((row) => ({
          id: row.id,
          type: row.type,
          timestamp: new Date(row.occurred_at).toISOString(),
          onboarding_id: row.onboarding_id,
          data: row.data,
        })),
      };
    },
  );
}
