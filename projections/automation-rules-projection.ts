import type { RecordedEvent } from '../shared/event-store/event-store.ts';
import {
  AUTOMATION_RULE_EVENT_TYPES,
  type AutomationAction,
  type AutomationRuleEvent,
} from '../services/automation/automation-rule-events.ts';
import { readModelProjection } from '../shared/projections/projection.ts';

/**
 * automation_rules: every rule of every team (the workspace lists a team's rules here).
 * `foldAutomationRule` is the pure half: each event becomes the row change it makes,
 * written in log order by `persist`.
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

export const automationRulesProjection = readModelProjection<AutomationRuleChange[]>({
  name: 'automation_rules',
  tables: ['automation_rules'],
  canHandle: AUTOMATION_RULE_EVENT_TYPES,
  load: async () => [],
  fold: foldAutomationRule,
  async persist(client, changes, table) {
    const rules = table('automation_rules');
    for (const change of changes) {
      switch (change.kind) {
        case 'created': {
          const { row } = change;
          await client.query(
            `insert into ${rules} (id, team_id, name, trigger, action, enabled, created_at, position)
             values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (id) do nothing`,
            [
              row.id,
              row.team_id,
              row.name,
              row.trigger,
              row.action,
              row.enabled,
              row.created_at,
              row.position,
            ],
          );
          break;
        }
        case 'updated':
          await client.query(
            `update ${rules} set name = coalesce($2, name), action = coalesce($3, action), position = $4
             where id = $1`,
            [change.id, change.name ?? null, change.action ?? null, change.position],
          );
          break;
        case 'switched':
          await client.query(`update ${rules} set enabled = $2, position = $3 where id = $1`, [
            change.id,
            change.enabled,
            change.position,
          ]);
          break;
        case 'deleted':
          await client.query(`update ${rules} set deleted_at = $2, position = $3 where id = $1`, [
            change.id,
            change.deleted_at,
            change.position,
          ]);
          break;
      }
    }
  },
});
