import { randomUUID } from 'node:crypto';
import { handleCommand, toDomainEvent, type CommandMetadata } from '../../shared/commands/handle-command.ts';
import { awaitReadModels } from '../../shared/commands/read-your-writes.ts';
import { fold } from '../../shared/commands/decider.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { registerDomainErrors } from '../../shared/http/domain-errors.ts';
import { operatorApiError, operatorErrors } from '../../shared/http/operator-commands.ts';
import { checkTargetUrl } from '../../shared/net/public-url.ts';
import { currentMember, teamById } from '../../projections/teams/queries.ts';
import { hasAutomations, isPlan } from '../access/contract/plans.ts';
import {
  automationRuleDecider,
  RULE_ERROR_TEXTS,
  type AutomationRuleCommand,
  type AutomationRuleState,
} from './automation-rule-decider.ts';
import {
  automationRuleStreamId,
  type AutomationAction,
  type AutomationRuleEvent,
  type AutomationTrigger,
} from './automation-rule-events.ts';
import { latestRunLine, type LatestRun } from './latest-run.ts';

/*
 * Automation rules' operations, shared by the operator API (./automation-rules-routes.ts)
 * and the workspace (./workspace-rule-routes.ts): the checks that need the team's data or
 * the network, the commands (the caller's metadata names the actor), and the rule's view
 * with its latest-run line and action warning.
 */

export type AutomationRulesDeps = Pick<
  Platform,
  'pool' | 'settings' | 'eventStore' | 'clock' | 'projections' | 'logger'
>;

export const URL_TEXT = 'url must be a public HTTPS URL';
export const TEMPLATE_TEXT = "template_id must be one of the team's templates";
export const MEMBER_TEXT = 'member_id must be a current team member';

export type Rule = Exclude<AutomationRuleState, { status: 'absent' }>;

export interface RuleTeam {
  plan_has_automations: boolean;
  timezone: string;
}

/**
 * The automation rules' table: their own codes without details; an unstorable value
 * (details.issues) and the codes it does not list answer as the operator table does.
 */
export const automationRuleErrors = registerDomainErrors('automation rules', {
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

export const planRefused = () =>
  codedError(403, 'automations_plan_required', RULE_ERROR_TEXTS.automations_plan_required);

const invalid = (message: string, field: string) =>
  codedError(400, 'invalid_body', message, { details: { issues: [{ path: field, message }] } });

export async function ruleTeam(context: AutomationRulesDeps, teamId: string): Promise<RuleTeam> {
  const row = await teamById(context.pool, teamId);
  if (!row) throw codedError(404, 'team_not_found', 'Team not found');
  return { plan_has_automations: isPlan(row.plan) && hasAutomations(row.plan), timezone: row.timezone };
}

export async function templateIsTeams(
  context: AutomationRulesDeps,
  teamId: string,
  templateId: string,
): Promise<boolean> {
  const { rowCount } = await context.pool.query(
    'select 1 from templates where id = $1 and team_id = $2 and not gallery and deleted_at is null',
    [templateId, teamId],
  );
  return (rowCount ?? 0) > 0;
}

export async function memberIsCurrent(
  context: AutomationRulesDeps,
  teamId: string,
  memberId: string,
): Promise<boolean> {
  return (await currentMember(context.pool, teamId, memberId)) !== undefined;
}

/** The checks of an action that need the team's data or the network (400 invalid_body). */
export async function checkAction(
  context: AutomationRulesDeps,
  teamId: string,
  action: AutomationAction,
): Promise<void> {
  switch (action.type) {
    case 'send_webhook': {
      const check = await checkTargetUrl(action.url, { allowlist: context.settings.HOOK_TARGET_ALLOWLIST });
      if (!check.ok) throw invalid(URL_TEXT, '/action/url');
      return;
    }
    case 'create_onboarding':
      if (!(await templateIsTeams(context, teamId, action.template_id)))
        throw invalid(TEMPLATE_TEXT, '/action/template_id');
      return;
    case 'notify_member':
      if (!(await memberIsCurrent(context, teamId, action.member_id)))
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

/** "Former team member" / "Deleted template" when the action names one; otherwise null. */
export async function actionWarning(context: AutomationRulesDeps, teamId: string, action: AutomationAction) {
  if (action.type === 'notify_member' && !(await memberIsCurrent(context, teamId, action.member_id))) {
    return 'Former team member' as const;
  }
  if (action.type === 'create_onboarding' && !(await templateIsTeams(context, teamId, action.template_id))) {
    return 'Deleted template' as const;
  }
  return null;
}

export async function latestRun(context: AutomationRulesDeps, ruleId: string, timezone: string) {
  const { rows } = await context.pool.query<LatestRun>(
    'select outcome, reason, ran_at from automation_rule_latest_runs where rule_id = $1',
    [ruleId],
  );
  return latestRunLine(rows[0] ?? null, timezone);
}

export async function ruleView(context: AutomationRulesDeps, rule: Rule, timezone: string) {
  return {
    id: rule.id,
    name: rule.name,
    trigger: rule.trigger,
    action: rule.action,
    enabled: rule.enabled,
    latest_run: await latestRun(context, rule.id, timezone),
    action_warning: await actionWarning(context, rule.team_id, rule.action),
  };
}

/** The team's rule from its stream (404 rule_not_found: unknown, deleted, or another team's). */
export async function readRule(context: AutomationRulesDeps, teamId: string, ruleId: string): Promise<Rule> {
  const recorded = await context.eventStore.readStream(automationRuleStreamId(ruleId));
  const state = fold(automationRuleDecider, recorded.map(toDomainEvent<AutomationRuleEvent>));
  if (state.status !== 'active' || state.team_id !== teamId) {
    throw codedError(404, 'rule_not_found', RULE_ERROR_TEXTS.rule_not_found);
  }
  return state;
}

async function run(
  context: AutomationRulesDeps,
  ruleId: string,
  command: AutomationRuleCommand,
  metadata: CommandMetadata,
): Promise<Rule> {
  try {
    const result = await handleCommand(context, {
      streamId: automationRuleStreamId(ruleId),
      decider: automationRuleDecider,
      command,
      metadata,
    });
    await awaitReadModels(context, result.position);
    return result.state as Rule;
  } catch (error) {
    throw operatorApiError(error, automationRuleErrors);
  }
}

export async function createRule(
  context: AutomationRulesDeps,
  teamId: string,
  input: { name: string; trigger: AutomationTrigger; action: AutomationAction; enabled?: boolean },
  metadata: CommandMetadata,
): Promise<{ rule: Rule; team: RuleTeam }> {
  const team = await ruleTeam(context, teamId);
  if (!team.plan_has_automations) throw planRefused();
  await checkAction(context, teamId, input.action);
  const ruleId = randomUUID();
  const rule = await run(
    context,
    ruleId,
    {
      type: 'CreateAutomationRule',
      data: {
        rule_id: ruleId,
        team_id: teamId,
        name: input.name,
        trigger: input.trigger,
        action: input.action,
        enabled: input.enabled ?? true,
        plan_has_automations: team.plan_has_automations,
      },
      metadata: { now: context.clock.now() },
    },
    metadata,
  );
  return { rule, team };
}

/**
 * Changes the name, action or switch. Without automations in the plan only switching off
 * is allowed; saving an edit needs a valid action: a rule whose member left or whose
 * template was deleted must choose a current one first.
 */
export async function updateRule(
  context: AutomationRulesDeps,
  teamId: string,
  ruleId: string,
  patch: { name?: string; action?: AutomationAction; enabled?: boolean },
  metadata: CommandMetadata,
): Promise<{ rule: Rule; team: RuleTeam }> {
  const team = await ruleTeam(context, teamId);
  const current = await readRule(context, teamId, ruleId);
  const edits = patch.name !== undefined || patch.action !== undefined;
  if (!team.plan_has_automations && (edits || patch.enabled === true)) throw planRefused();
  if (edits) await checkAction(context, teamId, patch.action ?? current.action);
  const rule = await run(
    context,
    ruleId,
    {
      type: 'UpdateAutomationRule',
      data: { team_id: teamId, ...patch, plan_has_automations: team.plan_has_automations },
      metadata: { now: context.clock.now() },
    },
    metadata,
  );
  return { rule, team };
}

export async function deleteRule(
  context: AutomationRulesDeps,
  teamId: string,
  ruleId: string,
  metadata: CommandMetadata,
): Promise<void> {
  await ruleTeam(context, teamId);
  await run(
    context,
    ruleId,
    { type: 'DeleteAutomationRule', data: { team_id: teamId }, metadata: { now: context.clock.now() } },
    metadata,
  );
}
