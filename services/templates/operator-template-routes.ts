import { randomUUID } from 'node:crypto';
import { operatorSchema } from '../../shared/http/route-schema.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { fold } from '../../shared/commands/decider.ts';
import { teamDecider } from '../access/index.ts';
import { teamStreamId, type TeamEvent } from '../access/index.ts';
import { INT4_MAX, INT4_MIN } from '../../shared/validation/safe-text.ts';
import { FIELD_TYPES } from './contract/field-catalogue.ts';
import { templateDecider } from './template-decider.ts';
import { templateStreamId } from './template-events.ts';
import { toDomainEvent } from '../../shared/commands/handle-command.ts';
import { codedError } from '../../shared/http/api-error.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { templateSchema, templateView } from './template-view.ts';
import { contentOf } from './template-definition.ts';
import { refuseOversizedTemplate, TEMPLATE_BODY_LIMIT, TEMPLATE_LIMITS } from './template-limits.ts';
import { awaitReadModels } from '../../shared/commands/read-your-writes.ts';
import { runCommand } from '../../shared/http/operator-commands.ts';
import { successSchema } from '../access/index.ts';

export type OperatorTemplateRouteDeps = Pick<
  Platform,
  'clock' | 'pool' | 'eventStore' | 'projections' | 'logger'
>;

/** An int4 column of the template read model. */
const sortOrder = z.number().int().min(INT4_MIN).max(INT4_MAX);

const json = z.unknown().describe('any JSON value; structure not fixed by the spec');
const jsonObject = z.record(z.unknown());

const fieldBody = z.object({
  type: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .describe(
      `one of ${FIELD_TYPES.join(', ')}; another type, or a config the type does not take, answers 400 invalid_body naming the field (steps[i].fields[j])`,
    ),
  label: z.string().max(1000),
  sort_order: sortOrder,
  is_required: z.boolean().optional(),
  config: jsonObject.optional(),
  conditional_rules: json.optional(),
  translations: json.optional(),
});

const stepBody = z.object({
  title: z.string().max(1000),
  sort_order: sortOrder,
  is_optional: z.boolean().optional(),
  conditional_rules: json.optional(),
  translations: json.optional(),
  fields: z.array(fieldBody).max(TEMPLATE_LIMITS.fieldsPerStep).optional(),
});

const templateBody = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(10_000).nullable().optional(),
  vertical: z.string().max(200).nullable().optional(),
  settings: jsonObject.optional(),
  translations: json.optional(),
  steps: z.array(stepBody).max(TEMPLATE_LIMITS.steps).optional(),
});

const teamParams = z.object({ team_id: z.string().uuid() });
const templateParams = teamParams.extend({ template_id: z.string().uuid() });
const templateAnswer = z.object({ template: templateSchema });

/**
 * Operator API: team templates and gallery templates. The API cannot create templates
 * (the web builder does); the operator API stands in for the builder.
 */
export async function operatorTemplateRoutes(
  plain: FastifyInstance,
  { context }: { context: OperatorTemplateRouteDeps },
) {
  const app = zodApp(plain);

  async function createTemplate(
    request: FastifyRequest,
    teamId: string | null,
    body: z.infer<typeof templateBody>,
  ) {
    const templateId = randomUUID();
    const content = contentOf(body);
    const now = context.clock.now();
    const result = await runCommand(context, request, templateStreamId(templateId), templateDecider, {
      type: 'CreateTemplate',
      data: { template_id: templateId, team_id: teamId, content },
      metadata: { now },
    });
    await awaitReadModels(context, result.position);
    return { template: templateView({ id: templateId, created_at: now.toISOString() }, content) };
  }

  async function requireTeam(teamId: string) {
    const events = await context.eventStore.readStream(teamStreamId(teamId));
    const state = fold(teamDecider, events.map(toDomainEvent<TeamEvent>));
    if (!state.team) throw codedError(404, 'team_not_found', 'Team not found');
  }

  app.post(
    '/teams/:team_id/templates',
    {
      bodyLimit: TEMPLATE_BODY_LIMIT,
      preValidation: refuseOversizedTemplate,
      schema: operatorSchema(
        'adminCreateTemplate',
        "Create a team's template (answer shaped as GET /api/v1/templates/:id)",
        {
          description:
            '`name`, optional `description`, `vertical`, `settings`, `translations`, and `steps`: each `title`, `sort_order`, optional `is_optional`, `conditional_rules`, `translations`, and `fields`: each `type`, `label`, `sort_order`, optional `is_required`, `config`, `conditional_rules`, `translations`. 201 `template` shaped as GET /api/v1/templates/:id.',
          params: teamParams,
          body: templateBody,
        },
        { 201: templateAnswer, 404: coded('Team not found (code team_not_found)') },
      ),
    },
    async (request, reply) => {
      await requireTeam(request.params.team_id);
      return reply.status(201).send(await createTemplate(request, request.params.team_id, request.body));
    },
  );

  app.delete(
    '/teams/:team_id/templates/:template_id',
    {
      schema: operatorSchema(
        'adminDeleteTemplate',
        "Delete a team's template",
        { params: templateParams },
        { 200: successSchema, 404: coded('Template not found in this team (code template_not_found)') },
      ),
    },
    async (request) => {
      const { team_id, template_id } = request.params;
      const result = await runCommand(context, request, templateStreamId(template_id), templateDecider, {
        type: 'DeleteTemplate',
        data: { team_id },
        metadata: { now: context.clock.now() },
      });
      await awaitReadModels(context, result.position);
      return { success: true as const };
    },
  );

  app.post(
    '/gallery-templates',
    {
      bodyLimit: TEMPLATE_BODY_LIMIT,
      preValidation: refuseOversizedTemplate,
      schema: operatorSchema(
        'adminCreateGalleryTemplate',
        'Create a gallery template (usable by every team, not listed by the API)',
        { body: templateBody },
        { 201: templateAnswer },
      ),
    },
    async (request, reply) => reply.status(201).send(await createTemplate(request, null, request.body)),
  );
}
