import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { signedIn } from './workspace-session.ts';
import { teamActivity } from '../../../projections/team-activity/queries.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

/**
 * The team's audit view (owners and admins), newest first, paginated by an opaque cursor
 * (the position of the last entry seen). Read model team_activity, folded from the events.
 */
export async function auditRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  app.get(
    '/audit',
    {
      config: { workspace: { action: 'audit.read' } },
      schema: workspaceSchema(
        'workspaceListAuditEntries',
        'Sign-ins, lockouts, key and member changes, newest first',
        {
          querystring: z.object({
            limit: z.coerce.number().int().min(1).max(100).default(50),
            cursor: z
              .string()
              .regex(/^\d{1,20}$/)
              .optional(),
          }),
        },
        {
          200: z.object({
            data: z.array(
              z.object({
                id: z.string(),
                type: z.string(),
                actor_member_id: z.string().nullable(),
                actor_name: z
                  .string()
                  .nullable()
                  .describe("the actor's name; null: the system or a former member"),
                object_name: z
                  .string()
                  .nullable()
                  .describe(
                    "what the entry is about: a key's name and prefix, a member, an address; null: the team",
                  ),
                data: z.record(z.unknown()),
                occurred_at: z.string(),
              }),
            ),
            next_cursor: z.string().nullable(),
          }),
        },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const { limit, cursor } = request.query;
      const rows = await teamActivity(context.pool, session.teamId, cursor ?? null, limit + 1);
      const page = rows.slice(0, limit);
      return {
        data: page.map(({ position: _position, occurred_at, ...row }) => ({
          ...row,
          occurred_at: occurred_at.toISOString(),
        })),
        next_cursor: rows.length > limit ? String(page.at(-1)!.position) : null,
      };
    },
  );
}
