import type {
  AutomationAction,
  AutomationTrigger,
} from '../../services/automation/automation-rule-events.ts';
import type { ReadClient } from '../read-client.ts';

/** The reads other code may run on the automation_rules read model (./projection.ts writes it). */

export interface AutomationRuleRow {
  id: string;
  team_id: string;
  name: string;
  trigger: AutomationTrigger;
  action: AutomationAction;
  enabled: boolean;
}

/** The team's rules that are not deleted, newest first. */
export async function teamAutomationRules(db: ReadClient, teamId: string): Promise<AutomationRuleRow[]> {
  const { rows } = await db.query<AutomationRuleRow>(
    `select id, team_id, name, trigger, action, enabled from automation_rules
     where team_id = $1 and deleted_at is null order by created_at desc, id`,
    [teamId],
  );
  return rows;
}
