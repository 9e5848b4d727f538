import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'slonik';
import { z } from 'zod';
import type { WorkspaceDeps } from '../access/workspace/workspace-api.ts';
import { signedIn } from '../access/workspace/workspace-session.ts';
import { listItemSchema, listRow } from './templates-routes.ts';
import { workspaceBuilderRoutes } from './workspace-builder-routes.ts';

/** Enough for any team's own templates; the workspace lists them in one answer to choose from. */
export const WORKSPACE_TEMPLATE_LIMIT = 500;

/*
 * The team's own live templates for the workspace (every role reads them):
 *
 *   GET /templates   { data: [{ id, name, vertical, created_at }] } by name, at most 500
 *
 * The pages choose a template from it (the automation rule's Create new onboarding) instead
 * of asking for an id. Gallery and deleted templates are not listed, as in the public API.
 * The builder's routes (one template, create, save, duplicate, delete, the gallery) are in
 * ./workspace-builder-routes.ts.
 */
export async function workspaceTemplateRoutes(
  plain: FastifyInstance,
  { context }: { context: WorkspaceDeps },
) {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/templates',
    {
      config: { workspace: { action: 'templates.read' } },
      schema: {
        tags: ['workspace'],
        summary: "The team's own templates by name, to choose from (at most 500)",
        response: { 200: z.object({ data: z.array(listItemSchema) }) },
      },
    },
    async (request) => {
      const rows = await context.readDb.any(
        sql.type(listRow)`
          select id, name, vertical, created_at from templates
          where team_id = ${signedIn(request).teamId} and not gallery and deleted_at is null
          order by lower(name), created_at, id
          limit ${WORKSPACE_TEMPLATE_LIMIT}`,
      );
      return { data: rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() })) };
    },
  );
  await workspaceBuilderRoutes(plain, context);
}
