import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { signedIn } from '../../shared/http/workspace-request.ts';
import { listItemSchema } from './templates-routes.ts';
import { templateChoices } from '../../projections/templates/queries.ts';
import { workspaceBuilderRoutes } from './workspace-builder-routes.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';

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
  const app = zodApp(plain);
  app.get(
    '/templates',
    {
      config: { workspace: { action: 'templates.read' } },
      schema: workspaceSchema(
        'workspaceListTemplates',
        "The team's own templates by name, to choose from (at most 500)",
        {},
        { 200: z.object({ data: z.array(listItemSchema) }) },
      ),
    },
    async (request) => {
      return {
        data: await templateChoices(context.readPool, signedIn(request).teamId, WORKSPACE_TEMPLATE_LIMIT),
      };
    },
  );
  await workspaceBuilderRoutes(plain, context);
}
