import { describe, expect, it } from 'vitest';
import { foldAutomationRule, type AutomationRuleChange } from './fold.ts';
import { recorded } from '../fold-test-events.ts';

const base = { rule_id: 'r1', team_id: 't1' };
const action = { type: 'send_email', subject: 'Hi', body: 'Hello' };

describe('automation_rules fold', () => {
  it('turns each rule event into its row change, in log order', () => {
    const changes = [
      recorded(
        'automation_rule.created',
        { ...base, name: 'A', trigger: 'onboarding.completed', action, enabled: true, created_at: 'c' },
        1n,
      ),
      recorded('automation_rule.updated', { ...base, changes: { name: 'B' }, updated_at: 'u' }, 2n),
      recorded('automation_rule.disabled', { ...base, disabled_at: 'd' }, 3n),
      recorded('automation_rule.enabled', { ...base, enabled_at: 'e' }, 4n),
      recorded('automation_rule.deleted', { ...base, deleted_at: 'x' }, 5n),
      recorded('client.created', { client_id: 'c1' }, 6n),
    ].reduce<AutomationRuleChange[]>(foldAutomationRule, []);
    expect(changes).toEqual([
      {
        kind: 'created',
        row: {
          id: 'r1',
          team_id: 't1',
          name: 'A',
          trigger: 'onboarding.completed',
          action,
          enabled: true,
          created_at: 'c',
          position: '1',
        },
      },
      { kind: 'updated', id: 'r1', name: 'B', position: '2' },
      { kind: 'switched', id: 'r1', enabled: false, position: '3' },
      { kind: 'switched', id: 'r1', enabled: true, position: '4' },
      { kind: 'deleted', id: 'r1', deleted_at: 'x', position: '5' },
    ]);
  });
});
