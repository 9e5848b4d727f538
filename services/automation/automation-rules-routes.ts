import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toDomainEvent } from '../../shared/commands/handle-command.ts';
import {
  automationRuleDecider,
  RULE_ERROR_TEXTS,
  type AutomationRuleCommand,
  type AutomationRuleState,
} from './automation-rule-decider.ts';
import {
  AUTOMATION_TRIGGERS,
  automationRuleStreamId,
  RULE_LIMITS,
  type AutomationAction,
  type AutomationRuleEvent,
} from './automation-rule-events.ts';
import { latestRunLine, type LatestRun } from './latest-run.ts';
import { fold } from '../../shared/commands/decider.ts';
import { currentMember } from '../access/current-member.ts';
import { hasAutomations, isPlan } from '../access/plans.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { registerDomainErrors } from '../../shared/http/domain-errors.ts';
import { checkTargetUrl } from '../../shared/net/public-url.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { operatorErrorResponses } from '../../shared/http/operator-schemas.ts';
import { operatorErrors, runCommand } from '../../shared/http/operator-commands.ts';

export type AutomationRulesRouteDeps = Pick<Platform, 'pool' | 'settings' | 'eventStore' | 'clock'>;

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

const URL_TEXT = 'url must be a public HTTPS URL';
const TEMPLATE_TEXT = "template_id must be one of the team's templates";
const MEMBER_TEXT = 'member_id must be a current team member';

const text = (field: string, max: number, maxText: string) =>
  z
    .string({ required_error: `${field} is required` })
    .max(max, maxText)
    .refine((value) => value.trim() !== '', `${field} is required`);

const actionSchema = z
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

const createBody = z.object({
  name: ruleName,
  trigger: z.enum(AUTOMATION_TRIGGERS),
  action: actionSchema,
  enabled: z.boolean().optional().describe('default true'),
});

const patchBody = z
  .object({ name: ruleName, action: actionSchema, enabled: z.boolean() })
  .partial()
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'at least one of name, action, enabled is required',
  });

const ruleSchema = z.object({
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

/**
 * The automation rules' table: their own codes without details; an unstorable value
 * (details.issues) and the codes it does not list answer as the operator table does.
 */
const automationRuleErrors = registerDomainErrors('automation rules', {
  statuses: {
    rule_not_found: 404,
    automations_plan_required: 403,
    invalid_body: 400,
    rule_exists: 409,
  },
  special: (error) => (error.details?.['issues'] ? operatorErrors.answer(error) : undefined),
  form: (error, status) => codedError(status, error.code, error.message),
  fallback: operatorErrors,
});

const notFound = coded('Team or rule not found (code team_not_found or rule_not_found)');
const planRequired = coded("The team's plan does not include automations (code automations_plan_required)");

type Rule = Exclude<AutomationRuleState, { status: 'absent' }>;

interface TeamInfo {
  plan_has_automations: boolean;
  timezone: string;
}

export async function automationRulesRoutes(
  plain: FastifyInstance,
  { context }: { context: AutomationRulesRouteDeps },
) {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  async function team(teamId: string): Promise<TeamInfo> {
    const { rows } = await context.pool.query<{ plan: string; timezone: string }>(
      'select plan, timezone from teams where id = $1',
      [teamId],
    );
    const row = rows[0];
    if (!row) throw codedError(404, 'team_not_found', 'Team not found');
    return { plan_has_automations: isPlan(row.plan) && hasAutomations(row.plan), timezone: row.timezone };
  }

  const planRefused = () =>
    codedError(403, 'automations_plan_required', RULE_ERROR_TEXTS.automations_plan_required);
  const invalid = (message: string, field: string) =>
    codedError(400, 'invalid_body', message, { details: { issues: [{ path: field, message }] } });

  async function templateIsTeams(teamId: string, templateId: string): Promise<boolean> {
    const { rowCount } = await context.pool.query(
      'select 1 from templates where id = $1 and team_id = $2 and not gallery and deleted_at is null',
      [templateId, teamId],
    );
    return (rowCount ?? 0) > 0;
  }

  async function memberIsCurrent(teamId: string, memberId: string): Promise<boolean> {
    return (await currentMember(context.pool, teamId, memberId)) !== undefined;
  }

  /** The checks that need the team's data or the network. */
  async function checkAction(teamId: string, action: AutomationAction): Promise<void> {
    switch (action.type) {
      case 'send_webhook': {
        const check = await checkTargetUrl(action.url, { allowlist: context.settings.HOOK_TARGET_ALLOWLIST });
        if (!check.ok) throw invalid(URL_TEXT, '/action/url');
        return;
      }
      case 'create_onboarding':
        if (!(await templateIsTeams(teamId, action.template_id)))
          throw invalid(TEMPLATE_TEXT, '/action/template_id');
        return;
      case 'notify_member':
        if (!(await memberIsCurrent(teamId, action.member_id)))
          throw invalid(MEMBER_TEXT, '/action/member_id');
        return;
      case 'send_email':
        return;
      default: {
        const unknown: never = action;
        throw invalid(`unknown action ${JSON.stringify(unknown)}`, '/action/type');
      }
    }
  }

  async function actionWarning(teamId: string, action: AutomationAction) {
    if (action.type === 'notify_member' && !(await memberIsCurrent(teamId, action.member_id))) {
      return 'Former team member' as const;
    }
    if (action.type === 'create_onboarding' && !(await templateIsTeams(teamId, action.template_id))) {
      return 'Deleted template' as const;
    }
    return null;
  }

  async function latestRun(ruleId: string, timezone: string): Promise<string> {
    const { rows } = await context.pool.query<LatestRun>(
      'select outcome, reason, ran_at from automation_rule_latest_runs where rule_id = $1',
      [ruleId],
    );
    return latestRunLine(rows[0] ?? null, timezone);
  }

  async function view(rule: Rule, timezone: string) {
    return {
      id: rule.id,
      name: rule.name,
      trigger: rule.trigger,
      action: rule.action,
      enabled: rule.enabled,
      latest_run: await latestRun(rule.id, timezone),
      action_warning: await actionWarning(rule.team_id, rule.action),
    };
  }

  async function readRule(teamId: string, ruleId: string): Promise<Rule> {
    const recorded = await context.eventStore.readStream(automationRuleStreamId(ruleId));
    const state = fold(automationRuleDecider, recorded.map(toDomainEvent<AutomationRuleEvent>));
    if (state.status !== 'active' || state.team_id !== teamId) {
      throw codedError(404, 'rule_not_found', RULE_ERROR_TEXTS.rule_not_found);
    }
    return state;
  }

  async function run(request: FastifyRequest, ruleId: string, command: AutomationRuleCommand) {
    const result = await runCommand(
      context,
      request,
      automationRuleStreamId(ruleId),
      automationRuleDecider,
      command,
      automationRuleErrors,
    );
    return result.state as Rule;
  }

  app.post(
    '/teams/:team_id/automation-rules',
    {
      schema: {
        tags: ['operator'],
        summary: 'Create an automation rule (one trigger, one action; on unless enabled is false)',
        params: teamParams,
        body: createBody,
        response: {
          201: z.object({ rule: ruleSchema }),
          ...operatorErrorResponses({ body: true }),
          403: planRequired,
          404: notFound,
        },
      },
    },
    async (request, reply) => {
      const { team_id: teamId } = request.params;
      const info = await team(teamId);
      if (!info.plan_has_automations) throw planRefused();
      await checkAction(teamId, request.body.action);
      const ruleId = randomUUID();
      const rule = await run(request, ruleId, {
        type: 'CreateAutomationRule',
        data: {
          rule_id: ruleId,
          team_id: teamId,
          name: request.body.name,
          trigger: request.body.trigger,
          action: request.body.action,
          enabled: request.body.enabled ?? true,
          plan_has_automations: info.plan_has_automations,
        },
        metadata: { now: context.clock.now() },
      });
      return reply.status(201).send({ rule: await view(rule, info.timezone) });
    },
  );

  app.get(
    '/teams/:team_id/automation-rules/:rule_id',
    {
      schema: {
        tags: ['operator'],
        summary: 'An automation rule with its latest-run line',
        params: ruleParams,
        response: {
          200: z.object({
            rule: ruleSchema,
            latest_run: z.string().describe('the same line as rule.latest_run'),
          }),
          ...operatorErrorResponses(),
          404: notFound,
        },
      },
    },
    async (request) => {
      const info = await team(request.params.team_id);
      const rule = await view(await readRule(request.params.team_id, request.params.rule_id), info.timezone);
      return { rule, latest_run: rule.latest_run };
    },
  );

  app.patch(
    '/teams/:team_id/automation-rules/:rule_id',
    {
      schema: {
        tags: ['operator'],
        summary: 'Change the name, action or on/off switch of an automation rule',
        params: ruleParams,
        body: patchBody,
        response: {
          200: z.object({ rule: ruleSchema }),
          ...operatorErrorResponses({ body: true }),
          403: planRequired,
          404: notFound,
        },
      },
    },
    async (request) => {
      const { team_id: teamId, rule_id: ruleId } = request.params;
      const { name, action, enabled } = request.body;
      const info = await team(teamId);
      const current = await readRule(teamId, ruleId);
      const edits = name !== undefined || action !== undefined;
      if (!info.plan_has_automations && (edits || enabled === true)) throw planRefused();
      // Saving an edit needs a valid action: a rule whose member left or whose template was
      // deleted must choose a current one first.
      if (edits) await checkAction(teamId, action ?? current.action);
      const rule = await run(request, ruleId, {
        type: 'UpdateAutomationRule',
        data: { team_id: teamId, name, action, enabled, plan_has_automations: info.plan_has_automations },
        metadata: { now: context.clock.now() },
      });
      return { rule: await view(rule, info.timezone) };
    },
  );

  app.delete(
    '/teams/:team_id/automation-rules/:rule_id',
    {
      schema: {
        tags: ['operator'],
        summary: 'Delete an automation rule (runs already queued still run)',
        params: ruleParams,
        response: { 200: z.object({ success: z.literal(true) }), ...operatorErrorResponses(), 404: notFound },
      },
    },
    async (request) => {
      await team(request.params.team_id);
      await run(request, request.params.rule_id, {
        type: 'DeleteAutomationRule',
        data: { team_id: request.params.team_id },
        metadata: { now: context.clock.now() },
      });
      return { success: true as const };
    },
  );
}
