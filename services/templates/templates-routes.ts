import type { FastifyInstance } from 'fastify';
import { publicSchema } from '../../shared/http/route-schema.ts';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { listOwnTemplates, ownTemplate } from '../../projections/templates/queries.ts';
import { textError } from '../../shared/http/api-error.ts';
import { pagePaginationQuery } from '../../shared/http/pagination.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { text } from '../../shared/http/error-schemas.ts';
import { templateSchema, templateView } from './template-view.ts';
import { isUuid } from '../../shared/ids/uuid.ts';

export type TemplatesRouteDeps = Pick<Platform, 'readPool'>;

/*
 * Templates (client-onboarding-api.md: Template; GET /api/v1/templates, GET
 * /api/v1/templates/:id). Only the key's team's own templates that are not deleted:
 * gallery templates, deleted ones and other teams' answer "Template not found".
 * Templates are built through the operator API; these routes only read them.
 */

const NOT_FOUND = 'Template not found';

/** A template in a list: the public API's list and the workspace's template choices. */
export const listItemSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  vertical: z.string().nullable().describe("the template's industry"),
  created_at: z.string().describe('ISO 8601'),
});

export async function templatesRoutes(plain: FastifyInstance, { context }: { context: TemplatesRouteDeps }) {
  const app = zodApp(plain);

  app.get(
    '/templates',
    {
      config: { scope: 'templates:read' },
      schema: publicSchema(
        'templates',
        {
          operationId: 'listTemplates',
          summary: "List the team's own templates, newest first (never gallery templates)",
          description:
            "Scope templates:read. Query: page, limit. Newest first. Only the team's own templates. Response 200: `templates`, `total`, `page`, `limit`.",
        },
        { querystring: pagePaginationQuery },
        {
          200: z.object({
            templates: z.array(listItemSchema),
            total: z.number().int(),
            page: z.number().int(),
            limit: z.number().int(),
          }),
        },
      ),
    },
    async (request) => {
      const { page, limit } = request.query;
      const { templates, total } = await listOwnTemplates(context.readPool, request.principal.teamId, {
        page,
        limit,
      });
      return { templates, total, page, limit };
    },
  );

  app.get(
    '/templates/:id',
    {
      config: { scope: 'templates:read' },
      schema: publicSchema(
        'templates',
        {
          operationId: 'getTemplate',
          summary:
            'Get a template with its steps and fields (in the order built; clients sort by sort_order)',
          description:
            'Scope templates:read. Response 200: `template` with steps and fields. Unknown ID: 404, error text Template not found.',
        },
        { params: z.object({ id: z.string().describe('template id (uuid)') }) },
        {
          200: z.object({ template: templateSchema }),
          404: text(
            "Template not found (unknown id, another team's, a gallery or deleted template, or not a UUID)",
          ),
        },
        { validation: false },
      ),
    },
    async (request) => {
      const { id } = request.params;
      if (!isUuid(id)) throw textError(404, NOT_FOUND);
      const row = await ownTemplate(context.readPool, request.principal.teamId, id);
      if (!row) throw textError(404, NOT_FOUND);
      return { template: templateView(row, row.snapshot) };
    },
  );
}
