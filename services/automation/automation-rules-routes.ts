import type { FastifyInstance } from 'fastify';
import { operatorSchema } from '../../shared/http/route-schema.ts';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { AUTOMATION_TRIGGERS, RULE_LIMITS } from './automation-rule-events.ts';
import {
  createRule,
  deleteRule,
  MEMBER_TEXT,
  readRule,
  ruleTeam,
  ruleView,
  TEMPLATE_TEXT,
  updateRule,
  URL_TEXT,
  type AutomationRulesDeps,
} from './automation-rules.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { requestMetadata } from '../../shared/http/request-metadata.ts';

export type AutomationRulesRouteDeps = AutomationRulesDeps;

/*
 * Operator API: automation rules (operator-and-portal-api.md; client-onboarding-api.md,
 * Automation rules). A rule is one trigger and one action, on unless created off.
 *
 *   POST   /teams/:team_id/automation-rules            201 { rule }
 *   GET    /teams/:team_id/automation-rules/:rule_id   200 { rule, latest_run }
 *   PATCH  /teams/:team_id/automation-rules/:rule_id   200 { rule }   (name, action, enabled)
 *   DELETE /teams/:team_id/automation-rules/:rule_id   200 { success }
 *
 * rule: id, name, trigger, action, enabled, latest_run (the exact latest-run line:
 * services/automation/latest-run.ts) and action_warning ("Former team member"
 * when a Notify team member rule's member left, "Deleted template" when a Create new
 * onboarding rule's template was deleted; otherwise null).
 *
 * Errors (full error bodies): 400 invalid_body (schema, or: url must be a public HTTPS
 * URL; template_id must be one of the team's templates; member_id must be a current team
 * member; an edit of a rule whose member left or whose template was deleted must choose a
 * current one); 403 automations_plan_required (a plan without automations: rules can be
 * switched off and deleted, not added, edited or switched on); 404 team_not_found,
 * rule_not_found (unknown, deleted, or another team's).
 */

const text = (field: string, max: number, maxText: string) =>
  z
    .string({ required_error: `${field} is required` })
    .max(max, maxText)
    .refine((value) => value.trim() !== '', `${field} is required`);

export const actionSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('send_email'),
      subject: text('subject', RULE_LIMITS.subject, 'subject must be 500 characters or fewer'),
      body: text('body', RULE_LIMITS.body, 'body must be 10,000 characters or fewer'),
    }),
    z.object({
      type: z.literal('send_webhook'),
      url: z
        .string({ required_error: 'url is required' })
        .trim()
        .min(1, 'url is required')
        .max(RULE_LIMITS.url, URL_TEXT),
    }),
    z.object({
      type: z.literal('create_onboarding'),
      template_id: z.string({ required_error: 'template_id is required' }).uuid(TEMPLATE_TEXT),
    }),
    z.object({
      type: z.literal('notify_member'),
      member_id: z.string({ required_error: 'member_id is required' }).uuid(MEMBER_TEXT),
      message: text('message', RULE_LIMITS.message, 'message must be 10,000 characters or fewer'),
    }),
  ])
  .describe(
    'send_email {subject ≤ 500, body ≤ 10,000; placeholders allowed}, send_webhook {url: public HTTPS ≤ 500}, create_onboarding {template_id: one of the team’s templates}, notify_member {member_id: a current member, message ≤ 10,000}',
  );

const ruleName = z
  .string({ required_error: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(RULE_LIMITS.name, 'name must be 200 characters or fewer');

export const createBody = z.object({
  name: ruleName,
  trigger: z.enum(AUTOMATION_TRIGGERS),
  action: actionSchema,
  enabled: z.boolean().optional().describe('default true'),
});

export const patchBody = z
  .object({ name: ruleName, action: actionSchema, enabled: z.boolean() })
  .partial()
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'at least one of name, action, enabled is required',
  });

export const ruleSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  trigger: z.enum(AUTOMATION_TRIGGERS),
  action: actionSchema,
  enabled: z.boolean(),
  latest_run: z
    .string()
    .describe(
      'Has not run yet | Last ran <date and time> | Failed, trying again: <reason> | Failed: <reason> (stopped)',
    ),
  action_warning: z.enum(['Former team member', 'Deleted template']).nullable(),
});

const teamParams = z.object({ team_id: z.string().uuid() });
const ruleParams = teamParams.extend({ rule_id: z.string().uuid() });

const notFound = coded('Team or rule not found (code team_not_found or rule_not_found)');
const planRequired = coded("The team's plan does not include automations (code automations_plan_required)");

export async function automationRulesRoutes(
  plain: FastifyInstance,
  { context }: { context: AutomationRulesRouteDeps },
) {
  const app = zodApp(plain);

  app.post(
    '/teams/:team_id/automation-rules',
    {
      schema: operatorSchema(
        'adminCreateAutomationRule',
        'Create an automation rule (one trigger, one action; on unless enabled is false)',
        { params: teamParams, body: createBody },
        { 201: z.object({ rule: ruleSchema }), 403: planRequired, 404: notFound },
      ),
    },
    async (request, reply) => {
      const { rule, team } = await createRule(
        context,
        request.params.team_id,
        request.body,
        requestMetadata(request),
      );
      return reply.status(201).send({ rule: await ruleView(context, rule, team.timezone) });
    },
  );

  app.get(
    '/teams/:team_id/automation-rules/:rule_id',
    {
      schema: operatorSchema(
        'adminGetAutomationRule',
        'An automation rule with its latest-run line',
        { params: ruleParams },
        {
          200: z.object({
            rule: ruleSchema,
            latest_run: z.string().describe('the same line as rule.latest_run'),
          }),
          404: notFound,
        },
      ),
    },
    async (request) => {
      const info = await ruleTeam(context, request.params.team_id);
      const rule = await ruleView(
        context,
        await readRule(context, request.params.team_id, request.params.rule_id),
        info.timezone,
      );
      return { rule, latest_run: rule.latest_run };
    },
  );

  app.patch(
    '/teams/:team_id/automation-rules/:rule_id',
    {
      schema: operatorSchema(
        'adminUpdateAutomationRule',
        'Change the name, action or on/off switch of an automation rule',
        { params: ruleParams, body: patchBody },
        { 200: z.object({ rule: ruleSchema }), 403: planRequired, 404: notFound },
      ),
    },
    async (request) => {
      const { rule, team } = await updateRule(
        context,
        request.params.team_id,
        request.params.rule_id,
        request.body,
        requestMetadata(request),
      );
      return { rule: await ruleView(context, rule, team.timezone) };
    },
  );

  app.delete(
    '/teams/:team_id/automation-rules/:rule_id',
    {
      schema: operatorSchema(
        'adminDeleteAutomationRule',
        'Delete an automation rule (runs already queued still run)',
        { params: ruleParams },
        { 200: z.object({ success: z.literal(true) }), 404: notFound },
      ),
    },
    async (request) => {
      await deleteRule(context, request.params.team_id, request.params.rule_id, requestMetadata(request));
      return { success: true as const };
    },
  );
}
