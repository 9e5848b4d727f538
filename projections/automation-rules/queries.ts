import type { CreatedRule } from '../../services/automation/created-rule.ts';
import type { ReadClient } from '../read-client.ts';

/** The reads other code may run on the automation_rules read model (./projection.ts writes it). */

/** A rule as the workspace lists it: its facts but the creation time. */
export type AutomationRuleRow = Omit<CreatedRule, 'created_at'>;

/** The team's rules that are not deleted, newest first. */
export async function teamAutomationRules(db: ReadClient, teamId: string): Promise<AutomationRuleRow[]> {
  const { rows } = await db.query<AutomationRuleRow>(
    `select id, team_id, name, trigger, action, enabled from automation_rules
     where team_id = $1 and deleted_at is null order by created_at desc, id`,
    [teamId],
  );
  return rows;
}
