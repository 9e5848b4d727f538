import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type {
  AutomationAction,
  AutomationRuleEvent,
} from '../../services/automation/automation-rule-events.ts';

/**
 * The pure half of the automation_rules read model (./projection.ts writes it): each
 * event becomes the row change it makes, in log order.
 */

export type AutomationRuleChange =
  | {
      kind: 'created';
      row: {
        id: string;
        team_id: string;
        name: string;
        trigger: string;
        action: AutomationAction;
        enabled: boolean;
        created_at: string;
        position: string;
      };
    }
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
    case 'automation_rule.created': {
      const { data } = event;
      changes.push({
        kind: 'created',
        row: {
          id: data.rule_id,
          team_id: data.team_id,
          name: data.name,
          trigger: data.trigger,
          action: data.action,
          enabled: data.enabled,
          created_at: data.created_at,
          position,
        },
      });
      break;
    }
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
