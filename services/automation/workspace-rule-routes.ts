import type { FastifyInstance } from 'fastify';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { codedError } from '../../shared/http/api-error.ts';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { memberMetadata } from '../../shared/http/workspace-request.ts';
import { signedIn } from '../../shared/http/workspace-request.ts';
import { teamAutomationRules } from '../../projections/automation-rules/queries.ts';
import { actionSchema, createBody, patchBody, ruleSchema } from './automation-rules-routes.ts';
import {
  actionWarning,
  createRule,
  deleteRule,
  latestRun,
  readRule,
  ruleTeam,
  updateRule,
  type Rule,
} from './automation-rules.ts';
import { PLACEHOLDERS } from './placeholders.ts';
import { checkPlaceholders } from './placeholder-check.ts';
import { ruleTrialRoutes } from './rule-trial-routes.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';

/*
 * The workspace's automation rules (owners and admins; /workspace/v1), over the operator
 * API's rule operations (./automation-rules.ts) with the member as actor:
 *
 *   GET    /automation-rules                 { data: [rule] } newest first, each with its latest-run line
 *   GET    /automation-rules/placeholders    the placeholders of send_email and notify_member texts
 *   POST   /automation-rules                 201 { rule }
 *   GET    /automation-rules/:id             { rule }
 *   PATCH  /automation-rules/:id             { rule }  (name, action, enabled)
 *   DELETE /automation-rules/:id             { success }
 *   POST   /automation-rules/preview, /test  the rule dialog's preview and test send (./rule-trial-routes.ts)
 *
 * Saving refuses a text with a placeholder that does not exist (422 unknown_placeholder,
 * ./placeholder-check.ts); the operator API keeps the spec's rule (left as typed).
 *
 * The view adds to the operator's: action.member_status ('current' | 'former') for Notify
 * team member, action.template_status ('current' | 'deleted') for Create new onboarding.
 * Such a rule (action_warning set) is not saved until the request names a current member
 * or template: 400 former_team_member / deleted_template; it can still be switched off and
 * deleted. Without automations in the plan: only switching off and deleting (403
 * automations_plan_required).
 */

const idParams = z.object({ id: z.string().uuid() });

const [sendEmail, sendWebhook, createOnboarding, notifyMember] = actionSchema.options;
const workspaceActionSchema = z.discriminatedUnion('type', [
  sendEmail,
  sendWebhook,
  createOnboarding.extend({ template_status: z.enum(['current', 'deleted']) }),
  notifyMember.extend({ member_status: z.enum(['current', 'former']) }),
]);
export const workspaceRuleSchema = ruleSchema.extend({ action: workspaceActionSchema });

const PLACEHOLDER_TEXTS: Record<(typeof PLACEHOLDERS)[number], string> = {
  client_name: "The client's name",
  client_email: "The client's email address",
  team_name: "Your team's name",
  template_name: "The onboarding's template name",
  company: "The client's company",
  due_date: 'The due date in your date format (blank without one)',
  progress_pct: 'Percent of the onboarding completed',
  event_type: 'The trigger event, e.g. onboarding.completed',
};

/** What the workspace's rule routes share: the rule's view with its latest run and action status. */
function workspaceRulesKit(context: WorkspaceDeps) {
  async function view(rule: Rule, timezone: string) {
    const warning = await actionWarning(context, rule.team_id, rule.action);
    const action: z.infer<typeof workspaceActionSchema> =
      rule.action.type === 'notify_member'
        ? { ...rule.action, member_status: warning ? 'former' : 'current' }
        : rule.action.type === 'create_onboarding'
          ? { ...rule.action, template_status: warning ? 'deleted' : 'current' }
          : rule.action;
    return {
      id: rule.id,
      name: rule.name,
      trigger: rule.trigger,
      action,
      enabled: rule.enabled,
      latest_run: await latestRun(context, rule.id, timezone),
      action_warning: warning,
    };
  }

  return { context, view };
}

type WorkspaceRulesKit = ReturnType<typeof workspaceRulesKit>;

/** GET /automation-rules */
function listRulesRoute(app: ZodApp, kit: WorkspaceRulesKit) {
  const { context, view } = kit;
  app.get(
    '/automation-rules',
    {
      config: { workspace: { action: 'automation_rules.read' } },
      schema: workspaceSchema(
        'workspaceListAutomationRules',
        "The team's automation rules, newest first, each with its latest-run line",
        {},
        { 200: z.object({ data: z.array(workspaceRuleSchema) }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const team = await ruleTeam(context, session.teamId);
      const rows = await teamAutomationRules(context.pool, session.teamId);
      const rules = rows.map((row) => ({ ...row, status: 'active' as const }) as unknown as Rule);
      return { data: await Promise.all(rules.map((rule) => view(rule, team.timezone))) };
    },
  );
}

/** GET /automation-rules/placeholders */
function placeholdersRoute(app: ZodApp, _kit: WorkspaceRulesKit) {
  app.get(
    '/automation-rules/placeholders',
    {
      config: { workspace: { action: 'automation_rules.read' } },
      schema: workspaceSchema(
        'workspaceListAutomationPlaceholders',
        'The placeholders of Send email (subject, body) and Notify team member (message)',
        {},
        {
          200: z.object({
            data: z.array(z.object({ name: z.string(), placeholder: z.string(), description: z.string() })),
            actions: z.array(z.string()),
          }),
        },
      ),
    },
    async () => ({
      data: PLACEHOLDERS.map((name) => ({
        name,
        placeholder: `{{${name}}}`,
        description: PLACEHOLDER_TEXTS[name],
      })),
      actions: ['send_email', 'notify_member'],
    }),
  );
}

/** GET /automation-rules/:id */
function getRuleRoute(app: ZodApp, kit: WorkspaceRulesKit) {
  const { context, view } = kit;
  app.get(
    '/automation-rules/:id',
    {
      config: { workspace: { action: 'automation_rules.read' } },
      schema: workspaceSchema(
        'workspaceGetAutomationRule',
        'An automation rule with its latest-run line and its member or template status',
        { params: idParams },
        { 200: z.object({ rule: workspaceRuleSchema }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const team = await ruleTeam(context, session.teamId);
      return { rule: await view(await readRule(context, session.teamId, request.params.id), team.timezone) };
    },
  );
}

/** POST /automation-rules */
function createRuleRoute(app: ZodApp, kit: WorkspaceRulesKit) {
  const { context, view } = kit;
  app.post(
    '/automation-rules',
    {
      config: { workspace: { action: 'automation_rules.manage' } },
      schema: workspaceSchema(
        'workspaceCreateAutomationRule',
        'Create an automation rule (one trigger, one action; on unless enabled is false)',
        { body: createBody },
        { 201: z.object({ rule: workspaceRuleSchema }) },
      ),
    },
    async (request, reply) => {
      const session = signedIn(request);
      checkPlaceholders(request.body.action);
      const { rule, team } = await createRule(
        context,
        session.teamId,
        request.body,
        memberMetadata(request, session.memberId),
      );
      return reply.status(201).send({ rule: await view(rule, team.timezone) });
    },
  );
}

/** PATCH /automation-rules/:id */
function patchRuleRoute(app: ZodApp, kit: WorkspaceRulesKit) {
  const { context, view } = kit;
  app.patch(
    '/automation-rules/:id',
    {
      config: { workspace: { action: 'automation_rules.manage' } },
      schema: workspaceSchema(
        'workspaceUpdateAutomationRule',
        'Change the name, action or switch of a rule (a rule naming a former member or deleted template must name a current one)',
        { params: idParams, body: patchBody },
        { 200: z.object({ rule: workspaceRuleSchema }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const current = await readRule(context, session.teamId, request.params.id);
      if (request.body.action) checkPlaceholders(request.body.action);
      const switchingOffOnly =
        request.body.name === undefined &&
        request.body.action === undefined &&
        request.body.enabled === false;
      if (request.body.action === undefined && !switchingOffOnly) {
        const warning = await actionWarning(context, session.teamId, current.action);
        if (warning === 'Former team member') {
          throw codedError(
            400,
            'former_team_member',
            'This rule notifies a former team member: choose a current member (action.member_id) to save it.',
          );
        }
        if (warning === 'Deleted template') {
          throw codedError(
            400,
            'deleted_template',
            'This rule uses a deleted template: choose one of your templates (action.template_id) to save it.',
          );
        }
      }
      const { rule, team } = await updateRule(
        context,
        session.teamId,
        request.params.id,
        request.body,
        memberMetadata(request, session.memberId),
      );
      return { rule: await view(rule, team.timezone) };
    },
  );
}

/** DELETE /automation-rules/:id */
function deleteRuleRoute(app: ZodApp, kit: WorkspaceRulesKit) {
  const { context } = kit;
  app.delete(
    '/automation-rules/:id',
    {
      config: { workspace: { action: 'automation_rules.manage' } },
      schema: workspaceSchema(
        'workspaceDeleteAutomationRule',
        'Delete an automation rule (runs already queued still run)',
        { params: idParams },
        { 200: z.object({ success: z.literal(true) }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      await deleteRule(context, session.teamId, request.params.id, memberMetadata(request, session.memberId));
      return { success: true as const };
    },
  );
}

export async function workspaceRuleRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  const kit = workspaceRulesKit(context);
  listRulesRoute(app, kit);
  placeholdersRoute(app, kit);
  getRuleRoute(app, kit);
  createRuleRoute(app, kit);
  patchRuleRoute(app, kit);
  deleteRuleRoute(app, kit);
  ruleTrialRoutes(app, context);
}
