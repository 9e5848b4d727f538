import { AUTOMATION_RULE_EVENT_TYPES } from '../../services/automation/automation-rule-events.ts';
import { readModelProjection } from '../../shared/projections/projection.ts';
import { foldAutomationRule, type AutomationRuleChange } from './fold.ts';

/**
 * automation_rules: every rule of every team (the workspace lists a team's rules here).
 * ./fold.ts turns the events into row changes; `persist` writes them in log order.
 */

export const automationRulesProjection = readModelProjection<AutomationRuleChange[]>({
  name: 'automation_rules',
  tables: ['automation_rules'],
  canHandle: AUTOMATION_RULE_EVENT_TYPES,
  load: async () => [],
  fold: foldAutomationRule,
  async persist(client, changes, table) {
    const rules = table('automation_rules');
    /** A switch or a deletion: one column of the rule, and the position of its event. */
    const setColumn = (
      column: 'enabled' | 'deleted_at',
      value: boolean | string,
      change: { id: string; position: string },
    ) =>
      client.query(`update ${rules} set ${column} = $2, position = $3 where id = $1`, [
        change.id,
        value,
        change.position,
      ]);
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
          await setColumn('enabled', change.enabled, change);
          break;
        case 'deleted':
          await setColumn('deleted_at', change.deleted_at, change);
          break;
      }
    }
  },
});
