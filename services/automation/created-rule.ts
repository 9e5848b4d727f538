import type { AutomationAction, AutomationRuleCreated, AutomationTrigger } from './automation-rule-events.ts';

/**
 * A rule as its created event makes it: the decider's state and the automation_rules read
 * model both start from these facts, so a new fact of a rule is named here once.
 */
export interface CreatedRule {
  id: string;
  team_id: string;
  name: string;
  trigger: AutomationTrigger;
  action: AutomationAction;
  enabled: boolean;
  created_at: string;
}

export const createdRule = (data: AutomationRuleCreated['data']): CreatedRule => ({
  id: data.rule_id,
  team_id: data.team_id,
  name: data.name,
  trigger: data.trigger,
  action: data.action,
  enabled: data.enabled,
  created_at: data.created_at,
});
