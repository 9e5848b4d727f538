import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { handleCommand } from '../../shared/commands/handle-command.ts';
import { awaitReadModels } from '../../shared/commands/read-your-writes.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { registerDomainErrors } from '../../shared/http/domain-errors.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { operatorApiError } from '../../shared/http/operator-commands.ts';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { memberMetadata } from '../../shared/http/workspace-request.ts';
import { signedIn } from '../../shared/http/workspace-request.ts';
import { templateDecider, type TemplateCommand } from './template-decider.ts';
import { agreementTextBlockers, contentOf, templateDefinition, withFreshIds } from './template-definition.ts';
import { templateStreamId, type TemplateContent } from './template-events.ts';
import { refuseOversizedTemplate, TEMPLATE_BODY_LIMIT } from './template-limits.ts';
import {
  galleryTemplate,
  galleryTemplates,
  ownTemplate,
  type TemplateRow,
} from '../../projections/templates/queries.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';
import { memberLocale, teamSummary } from '../../projections/teams/queries.ts';
import {
  STARTERS,
  starterById,
  starterContent,
  starterGalleryItem,
  starterLocale,
} from './starters/index.ts';

/*
 * The workspace's template builder (/workspace/v1; every role may, with the member as the
 * actor of each event), over the one command pipeline:
 *
 *   GET    /templates/:id                 { template }  the whole definition, its version and send blockers
 *   POST   /templates                     201 { template }  a new template from a definition
 *   PUT    /templates/:id                 { template }  the whole new definition with the version opened
 *                                        (409 template_changed when someone saved in between)
 *   POST   /templates/:id/duplicate       201 { template }  a copy named "Copy of <name>"
 *   DELETE /templates/:id                 { success }
 *   GET    /gallery-templates             { data: [gallery template] }  the built-in starters
 *                                        (./starters) in the member's language, then shared ones
 *   POST   /gallery-templates/:id/copy    201 { template }  a copy in the team, to edit
 *
 * A bad definition answers 400 invalid_body naming the step or field and changes nothing;
 * a definition over the caps of ./template-limits.ts (50 steps, 200 fields a step, 1,000 in
 * all, ...) answers 400 invalid_body naming the cap before any other check, a body over
 * 512 KiB 413.
 * Another team's, a gallery (except to copy) or a deleted template answers 404
 * template_not_found. Onboardings already created keep their snapshot: a save changes
 * only the template.
 */

const templateErrors = registerDomainErrors('workspace_templates', {
  statuses: { template_not_found: 404, template_changed: 409, template_exists: 409, duplicate_id: 400 },
  defaultStatus: 400,
  special: (error) =>
    error.code === 'invalid_body' && error.details?.['issues']
      ? codedError(400, 'invalid_body', 'Invalid request body', { details: error.details })
      : undefined,
  form: (error, status) =>
    codedError(status, error.code, error.message, error.details ? { details: error.details } : undefined),
});

const notFound = () => codedError(404, 'template_not_found', 'Template not found');

const blocker = z.object({ step_id: z.string(), field_id: z.string() });

/** The builder's view: the snapshot shape (with translations) plus id, version and what blocks a send. */
export const builderTemplateSchema = z.object({
  id: z.string().uuid(),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  vertical: z.string().nullable(),
  settings: z.record(z.unknown()),
  translations: z.unknown(),
  steps: z.array(z.record(z.unknown())),
  send_blockers: z
    .array(blocker)
    .describe('signature fields whose agreement text is sample text (or missing): sends are refused'),
});

const galleryItemSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string().nullable(),
  vertical: z.string().nullable(),
  step_count: z.number().int(),
  field_count: z.number().int(),
  sample_agreement_text: z
    .boolean()
    .describe('a signature field holds sample text: copy it and replace the text before sending'),
});

function builderView(row: TemplateRow): z.infer<typeof builderTemplateSchema> {
  const content = row.snapshot;
  return {
    id: row.id,
    version: row.version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at ? row.updated_at.toISOString() : null,
    name: content.name,
    description: content.description,
    vertical: content.vertical,
    settings: content.settings,
    translations: content.translations,
    steps: content.steps as unknown as Array<Record<string, unknown>>,
    send_blockers: agreementTextBlockers(content),
  };
}

const idParams = z.object({ id: z.string().uuid() });
const templateAnswer = z.object({ template: builderTemplateSchema });
const notFoundAnswer = {
  404: coded('Not in this team, a gallery or a deleted template (code template_not_found)'),
};
const invalidAnswer = {
  400: coded(
    'A bad definition (code invalid_body; the message names steps[i].fields[j], details.field_problems lists every problem) or one over the caps (at most 50 steps, 200 fields a step, 1,000 fields in all, 500 items a list, 9 languages, texts of 20,000 characters; the message names the cap); nothing changes',
  ),
};

/** What the routes of this file share. */
function builderKit(context: WorkspaceDeps) {
  async function ownOrNotFound(teamId: string, id: string) {
    const row = await ownTemplate(context.readPool, teamId, id);
    if (!row) throw notFound();
    return row;
  }

  /** Runs a template command with the member as actor, then waits for the read model. */
  async function run(request: FastifyRequest, templateId: string, command: TemplateCommand) {
    const session = signedIn(request);
    try {
      const result = await handleCommand(context, {
        streamId: templateStreamId(templateId),
        decider: templateDecider,
        command,
        metadata: memberMetadata(request, session.memberId),
      });
      await awaitReadModels(context, result.position);
    } catch (error) {
      throw operatorApiError(error, templateErrors);
    }
  }

  async function create(request: FastifyRequest, content: TemplateContent) {
    const session = signedIn(request);
    const templateId = randomUUID();
    await run(request, templateId, {
      type: 'CreateTemplate',
      data: { template_id: templateId, team_id: session.teamId, content, check_rules: true },
      metadata: { now: context.clock.now() },
    });
    return { template: builderView(await ownOrNotFound(session.teamId, templateId)) };
  }
  return { context, ownOrNotFound, run, create };
}

type BuilderKit = ReturnType<typeof builderKit>;

/** GET /templates/:id */
function getTemplatesByIdRoute(app: ZodApp, kit: BuilderKit) {
  const { ownOrNotFound } = kit;
  app.get(
    '/templates/:id',
    {
      config: { workspace: { action: 'templates.read' } },
      schema: workspaceSchema(
        'workspaceGetTemplate',
        'A template of the team with its whole definition, version and send blockers',
        { params: idParams },
        { 200: templateAnswer, ...notFoundAnswer },
      ),
    },
    async (request) => ({
      template: builderView(await ownOrNotFound(signedIn(request).teamId, request.params.id)),
    }),
  );
}

/** POST /templates */
function postTemplatesRoute(app: ZodApp, kit: BuilderKit) {
  const { create } = kit;
  app.post(
    '/templates',
    {
      config: { workspace: { action: 'templates.manage' } },
      bodyLimit: TEMPLATE_BODY_LIMIT,
      preValidation: refuseOversizedTemplate,
      schema: workspaceSchema(
        'workspaceCreateTemplate',
        'Create a template from a definition (steps may be left out)',
        { body: templateDefinition },
        { 201: templateAnswer, ...invalidAnswer },
      ),
    },
    async (request, reply) => reply.status(201).send(await create(request, contentOf(request.body))),
  );
}

/** PUT /templates/:id */
function putTemplatesByIdRoute(app: ZodApp, kit: BuilderKit) {
  const { context, ownOrNotFound, run } = kit;
  app.put(
    '/templates/:id',
    {
      config: { workspace: { action: 'templates.manage' } },
      bodyLimit: TEMPLATE_BODY_LIMIT,
      preValidation: refuseOversizedTemplate,
      schema: workspaceSchema(
        'workspaceSaveTemplate',
        "Save a template's whole definition; `version` is the version the builder opened",
        { params: idParams, body: templateDefinition.extend({ version: z.number().int().min(1) }) },
        {
          200: templateAnswer,
          ...invalidAnswer,
          ...notFoundAnswer,
          409: coded(
            'Someone else saved the template after this version (code template_changed; details.version is the current one); nothing changes',
          ),
        },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const { version, ...definition } = request.body;
      await run(request, request.params.id, {
        type: 'UpdateTemplate',
        data: { team_id: session.teamId, expected_version: version, content: contentOf(definition) },
        metadata: { now: context.clock.now() },
      });
      return { template: builderView(await ownOrNotFound(session.teamId, request.params.id)) };
    },
  );
}

/** POST /templates/:id/duplicate */
function postTemplatesByIdDuplicateRoute(app: ZodApp, kit: BuilderKit) {
  const { ownOrNotFound, create } = kit;
  app.post(
    '/templates/:id/duplicate',
    {
      config: { workspace: { action: 'templates.manage' } },
      schema: workspaceSchema(
        'workspaceDuplicateTemplate',
        'Duplicate a template of the team (new ids, named "Copy of ...")',
        { params: idParams },
        { 201: templateAnswer, ...notFoundAnswer },
      ),
    },
    async (request, reply) => {
      const row = await ownOrNotFound(signedIn(request).teamId, request.params.id);
      const content = row.snapshot;
      const name = `Copy of ${content.name}`.slice(0, 200);
      return reply.status(201).send(await create(request, withFreshIds(content, name)));
    },
  );
}

/** DELETE /templates/:id */
function deleteTemplatesByIdRoute(app: ZodApp, kit: BuilderKit) {
  const { context, run } = kit;
  app.delete(
    '/templates/:id',
    {
      config: { workspace: { action: 'templates.manage' } },
      schema: workspaceSchema(
        'workspaceDeleteTemplate',
        'Delete a template of the team (onboardings made from it keep their snapshot)',
        { params: idParams },
        {
          200: z.object({ success: z.literal(true) }),
          ...notFoundAnswer,
        },
      ),
    },
    async (request) => {
      await run(request, request.params.id, {
        type: 'DeleteTemplate',
        data: { team_id: signedIn(request).teamId },
        metadata: { now: context.clock.now() },
      });
      return { success: true as const };
    },
  );
}

/** GET /gallery-templates */
function getGalleryTemplatesRoute(app: ZodApp, kit: BuilderKit) {
  const { context } = kit;
  app.get(
    '/gallery-templates',
    {
      config: { workspace: { action: 'templates.read' } },
      schema: workspaceSchema(
        'workspaceListGalleryTemplates',
        'The gallery: shared starting templates, by name, to copy into the team',
        {},
        { 200: z.object({ data: z.array(galleryItemSchema) }) },
      ),
    },
    async (request) => {
      // The built-in starters first, in the member's language (else the team's), then any
      // gallery templates an operator added (docs/decisions/0093-built-in-starter-templates.md).
      const session = signedIn(request);
      const [rows, chosen, team] = await Promise.all([
        galleryTemplates(context.readPool),
        memberLocale(context.readPool, session.memberId),
        teamSummary(context.readPool, session.teamId),
      ]);
      const locale = starterLocale(chosen ?? team?.locale);
      return {
        data: [
          ...STARTERS.map((starter) => starterGalleryItem(starter, locale)),
          ...rows.map((row) => {
            const content = row.snapshot;
            return {
              id: row.id,
              name: content.name,
              description: content.description,
              vertical: content.vertical,
              step_count: content.steps.length,
              field_count: content.steps.reduce((sum, step) => sum + step.fields.length, 0),
              sample_agreement_text: agreementTextBlockers(content).length > 0,
            };
          }),
        ],
      };
    },
  );
}

/** POST /gallery-templates/:id/copy */
function postGalleryTemplatesByIdCopyRoute(app: ZodApp, kit: BuilderKit) {
  const { context, create } = kit;
  app.post(
    '/gallery-templates/:id/copy',
    {
      config: { workspace: { action: 'templates.manage' } },
      schema: workspaceSchema(
        'workspaceCopyGalleryTemplate',
        'Copy a gallery template into the team (sample agreement text stays marked until replaced)',
        { params: idParams },
        { 201: templateAnswer, ...notFoundAnswer },
      ),
    },
    async (request, reply) => {
      const starter = starterById(request.params.id);
      if (starter) {
        // A starter is copied in the team's language, the other eight as its translations.
        const team = await teamSummary(context.readPool, signedIn(request).teamId);
        const content = starterContent(starter, starterLocale(team?.locale));
        return reply.status(201).send(await create(request, content));
      }
      const row = await galleryTemplate(context.readPool, request.params.id);
      if (!row) throw notFound();
      return reply.status(201).send(await create(request, withFreshIds(row.snapshot)));
    },
  );
}

export async function workspaceBuilderRoutes(plain: FastifyInstance, context: WorkspaceDeps) {
  const app = zodApp(plain);
  const kit = builderKit(context);
  getTemplatesByIdRoute(app, kit);
  postTemplatesRoute(app, kit);
  putTemplatesByIdRoute(app, kit);
  postTemplatesByIdDuplicateRoute(app, kit);
  deleteTemplatesByIdRoute(app, kit);
  getGalleryTemplatesRoute(app, kit);
  postGalleryTemplatesByIdCopyRoute(app, kit);
}
