import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type {
  AutomationAction,
  AutomationRuleEvent,
} from '../../services/automation/automation-rule-events.ts';
import { createdRule, type CreatedRule } from '../../services/automation/created-rule.ts';

/**
 * The pure half of the automation_rules read model (./projection.ts writes it): each
 * event becomes the row change it makes, in log order.
 */

export type AutomationRuleChange =
  | { kind: 'created'; row: CreatedRule & { position: string } }
  | { kind: 'updated'; id: string; name?: string; action?: AutomationAction; position: string }
  | { kind: 'switched'; id: string; enabled: boolean; position: string }
  | { kind: 'deleted'; id: string; deleted_at: string; position: string };

export function foldAutomationRule(
  changes: AutomationRuleChange[],
  recorded: RecordedEvent,
): AutomationRuleChange[] {
  const event = { type: recorded.type, data: recorded.data } as AutomationRuleEvent;
  const position = String(recorded.position);
  switch (event.type) {
    case 'automation_rule.created':
      changes.push({ kind: 'created', row: { ...createdRule(event.data), position } });
      break;
    case 'automation_rule.updated':
      changes.push({ kind: 'updated', id: event.data.rule_id, ...event.data.changes, position });
      break;
    case 'automation_rule.enabled':
    case 'automation_rule.disabled':
      changes.push({
        kind: 'switched',
        id: event.data.rule_id,
        enabled: event.type === 'automation_rule.enabled',
        position,
      });
      break;
    case 'automation_rule.deleted':
      changes.push({ kind: 'deleted', id: event.data.rule_id, deleted_at: event.data.deleted_at, position });
      break;
    default:
      break;
  }
  return changes;
}
