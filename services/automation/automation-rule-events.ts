import type { AutomationTrigger } from './contract/rules.ts';
import type { DomainEvent } from '../../shared/commands/decider.ts';

export {
  AUTOMATION_TRIGGERS,
  isAutomationTrigger,
  RULE_LIMITS,
  type AutomationTrigger,
} from './contract/rules.ts';

/** Stream of one automation rule: `automation_rule-<rule_id>`. */
export const automationRuleStreamId = (ruleId: string) => `automation_rule-${ruleId}`;

/** The four actions, as the operator API writes them. */
export type AutomationAction =
  | { type: 'send_email'; subject: string; body: string }
  | { type: 'send_webhook'; url: string }
  | { type: 'create_onboarding'; template_id: string }
  | { type: 'notify_member'; member_id: string; message: string };

interface Base {
  rule_id: string;
  team_id: string;
}

export type AutomationRuleCreated = DomainEvent<
  'automation_rule.created',
  Base & {
    name: string;
    trigger: AutomationTrigger;
    action: AutomationAction;
    enabled: boolean;
    created_at: string;
  }
>;

/** Only what changed (name, action). */
export type AutomationRuleUpdated = DomainEvent<
  'automation_rule.updated',
  Base & { changes: { name?: string; action?: AutomationAction }; updated_at: string }
>;

export type AutomationRuleEnabled = DomainEvent<'automation_rule.enabled', Base & { enabled_at: string }>;

export type AutomationRuleDisabled = DomainEvent<'automation_rule.disabled', Base & { disabled_at: string }>;

export type AutomationRuleDeleted = DomainEvent<'automation_rule.deleted', Base & { deleted_at: string }>;

export type AutomationRuleEvent =
  | AutomationRuleCreated
  | AutomationRuleUpdated
  | AutomationRuleEnabled
  | AutomationRuleDisabled
  | AutomationRuleDeleted;

export const AUTOMATION_RULE_EVENT_TYPES = [
  'automation_rule.created',
  'automation_rule.updated',
  'automation_rule.enabled',
  'automation_rule.disabled',
  'automation_rule.deleted',
] as const satisfies readonly AutomationRuleEvent['type'][];
