import { AUTOMATION_TRIGGERS, RULE_LIMITS } from '../../../services/automation/automation-rule-events.ts';
import { boolean, object, oneOfValues, ref, string, timestamp, uuid } from '../json-schema.ts';
import { partial } from './fragments.ts';
import type { EventCatalogPart } from './types.ts';

const rule = { rule_id: uuid, team_id: uuid };

/** Automation rules. */
export const AUTOMATION_EVENTS: EventCatalogPart = {
  // Automation rules (stream automation_rule-<rule_id>)
  'automation_rule.created': {
    summary: 'An automation rule was created: one trigger, one action.',
    stream: 'automation_rule-<rule_id>',
    data: object({
      ...rule,
      name: string({ maxLength: RULE_LIMITS.name }),
      trigger: oneOfValues(AUTOMATION_TRIGGERS),
      action: ref('AutomationAction'),
      enabled: boolean,
      created_at: timestamp,
    }),
  },
  'automation_rule.updated': {
    summary: 'An automation rule changed; only the changed name or action is given.',
    stream: 'automation_rule-<rule_id>',
    data: object({
      ...rule,
      changes: partial({ name: string({ maxLength: RULE_LIMITS.name }), action: ref('AutomationAction') }),
      updated_at: timestamp,
    }),
  },
  'automation_rule.enabled': {
    summary: 'An automation rule was switched on.',
    stream: 'automation_rule-<rule_id>',
    data: object({ ...rule, enabled_at: timestamp }),
  },
  'automation_rule.disabled': {
    summary: 'An automation rule was switched off.',
    stream: 'automation_rule-<rule_id>',
    data: object({ ...rule, disabled_at: timestamp }),
  },
  'automation_rule.deleted': {
    summary: 'An automation rule was deleted.',
    stream: 'automation_rule-<rule_id>',
    data: object({ ...rule, deleted_at: timestamp }),
  },
};
