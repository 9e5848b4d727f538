import { DomainError, type Decider, unhandledEvent } from '../../shared/commands/decider.ts';
import { assertStorable } from '../../shared/validation/safe-text.ts';
import {
  RULE_LIMITS,
  type AutomationAction,
  type AutomationRuleEvent,
  type AutomationTrigger,
} from './automation-rule-events.ts';
import { createdRule, type CreatedRule } from './created-rule.ts';

/**
 * The automation rule aggregate: one trigger, one action, an on/off switch. Facts that
 * need I/O (the team's plan, whether a template or member is valid, whether a webhook URL
 * is public) are looked up by the route and arrive in the command; the decider keeps the
 * rules of the spec:
 *
 * - a new rule is on unless created off;
 * - a plan without automations: rules can be switched off and deleted, but not added,
 *   edited (name, action) or switched on (403 automations_plan_required);
 * - another team's rule, an unknown or a deleted one: rule_not_found.
 */

export type AutomationRuleState =
  { status: 'absent' } | (CreatedRule & { status: 'active' | 'deleted'; updated_at: string });

interface Meta {
  metadata: { now: Date };
}

export type CreateAutomationRule = Meta & {
  type: 'CreateAutomationRule';
  data: {
    rule_id: string;
    team_id: string;
    name: string;
    trigger: AutomationTrigger;
    action: AutomationAction;
    enabled: boolean;
    plan_has_automations: boolean;
  };
};

export type UpdateAutomationRule = Meta & {
  type: 'UpdateAutomationRule';
  data: {
    team_id: string;
    name?: string;
    action?: AutomationAction;
    enabled?: boolean;
    plan_has_automations: boolean;
  };
};

export type DeleteAutomationRule = Meta & {
  type: 'DeleteAutomationRule';
  data: { team_id: string };
};

export type AutomationRuleCommand = CreateAutomationRule | UpdateAutomationRule | DeleteAutomationRule;

export const RULE_ERROR_TEXTS = {
  rule_not_found: 'Automation rule not found',
  automations_plan_required: "The team's plan does not include automations",
  rule_exists: 'Automation rule already exists',
  invalid_body: 'Invalid automation rule',
} as const;

const fail = (code: keyof typeof RULE_ERROR_TEXTS, text: string = RULE_ERROR_TEXTS[code]) =>
  new DomainError(code, text);

/** Length and presence rules of the spec (the route's schema says the same at the edge). */
export function ruleProblems(name: string | undefined, action: AutomationAction | undefined): string[] {
  const problems: string[] = [];
  if (name !== undefined) {
    if (name.trim() === '') problems.push('name is required');
    if (name.length > RULE_LIMITS.name) problems.push(`name must be ${RULE_LIMITS.name} characters or fewer`);
  }
  if (action?.type === 'send_email') {
    if (action.subject.trim() === '') problems.push('subject is required');
    if (action.subject.length > RULE_LIMITS.subject) {
      problems.push(`subject must be ${RULE_LIMITS.subject} characters or fewer`);
    }
    if (action.body.trim() === '') problems.push('body is required');
    if (action.body.length > RULE_LIMITS.body) problems.push('body must be 10,000 characters or fewer');
  }
  if (action?.type === 'notify_member') {
    if (action.message.trim() === '') problems.push('message is required');
    if (action.message.length > RULE_LIMITS.message)
      problems.push('message must be 10,000 characters or fewer');
  }
  if (action?.type === 'send_webhook' && action.url.length > RULE_LIMITS.url) {
    problems.push('url must be a public HTTPS URL');
  }
  return problems;
}

function requireValid(name: string | undefined, action: AutomationAction | undefined): void {
  const problems = ruleProblems(name, action);
  if (problems.length > 0) throw fail('invalid_body', problems[0]);
}

function requireRule(state: AutomationRuleState, teamId: string) {
  if (state.status !== 'active' || state.team_id !== teamId) throw fail('rule_not_found');
  return state;
}

const sameAction = (a: AutomationAction, b: AutomationAction) => JSON.stringify(a) === JSON.stringify(b);

function create(command: CreateAutomationRule, state: AutomationRuleState): AutomationRuleEvent[] {
  const { data, metadata } = command;
  if (state.status !== 'absent') throw fail('rule_exists');
  if (!data.plan_has_automations) throw fail('automations_plan_required');
  requireValid(data.name, data.action);
  return [
    {
      type: 'automation_rule.created',
      data: {
        rule_id: data.rule_id,
        team_id: data.team_id,
        name: data.name,
        trigger: data.trigger,
        action: data.action,
        enabled: data.enabled,
        created_at: metadata.now.toISOString(),
      },
    },
  ];
}

function update(command: UpdateAutomationRule, state: AutomationRuleState): AutomationRuleEvent[] {
  const { data, metadata } = command;
  const rule = requireRule(state, data.team_id);
  const edits = data.name !== undefined || data.action !== undefined;
  if (!data.plan_has_automations && (edits || data.enabled === true)) throw fail('automations_plan_required');
  requireValid(data.name, data.action);
  const now = metadata.now.toISOString();
  const base = { rule_id: rule.id, team_id: rule.team_id };
  const changes: { name?: string; action?: AutomationAction } = {};
  if (data.name !== undefined && data.name !== rule.name) changes.name = data.name;
  if (data.action !== undefined && !sameAction(data.action, rule.action)) changes.action = data.action;
  const events: AutomationRuleEvent[] = [];
  if (Object.keys(changes).length > 0) {
    events.push({ type: 'automation_rule.updated', data: { ...base, changes, updated_at: now } });
  }
  if (data.enabled === true && !rule.enabled) {
    events.push({ type: 'automation_rule.enabled', data: { ...base, enabled_at: now } });
  }
  if (data.enabled === false && rule.enabled) {
    events.push({ type: 'automation_rule.disabled', data: { ...base, disabled_at: now } });
  }
  return events;
}

function remove(command: DeleteAutomationRule, state: AutomationRuleState): AutomationRuleEvent[] {
  const rule = requireRule(state, command.data.team_id);
  return [
    {
      type: 'automation_rule.deleted',
      data: { rule_id: rule.id, team_id: rule.team_id, deleted_at: command.metadata.now.toISOString() },
    },
  ];
}

function decide(command: AutomationRuleCommand, state: AutomationRuleState): AutomationRuleEvent[] {
  assertStorable(command.data);
  switch (command.type) {
    case 'CreateAutomationRule':
      return create(command, state);
    case 'UpdateAutomationRule':
      return update(command, state);
    case 'DeleteAutomationRule':
      return remove(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`Unknown automation rule command ${JSON.stringify(unknown)}`);
    }
  }
}

function evolve(state: AutomationRuleState, event: AutomationRuleEvent): AutomationRuleState {
  if (event.type === 'automation_rule.created') {
    return { status: 'active', ...createdRule(event.data), updated_at: event.data.created_at };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'automation_rule.updated':
      return { ...state, ...event.data.changes, updated_at: event.data.updated_at };
    case 'automation_rule.enabled':
      return { ...state, enabled: true, updated_at: event.data.enabled_at };
    case 'automation_rule.disabled':
      return { ...state, enabled: false, updated_at: event.data.disabled_at };
    case 'automation_rule.deleted':
      return { ...state, status: 'deleted', enabled: false, updated_at: event.data.deleted_at };
    default:
      return unhandledEvent(event, state);
  }
}

export const automationRuleDecider: Decider<AutomationRuleState, AutomationRuleCommand, AutomationRuleEvent> =
  {
    initialState: () => ({ status: 'absent' }),
    evolve,
    decide,
  };
