import { describe, expect, it } from 'vitest';
import { automationRuleDecider, type AutomationRuleCommand } from './automation-rule-decider.ts';
import type { AutomationAction, AutomationRuleEvent } from './automation-rule-events.ts';
import { formatRunTime, latestRunLine } from './latest-run.ts';
import { fillPlaceholders, formatDueDate, type PlaceholderValues } from './placeholders.ts';
import { nextAttemptAt, passAtOrAfter, passOf, retryWaitMs } from './run-policy.ts';
import { retryAfterSeconds } from '../../shared/net/retry-after.ts';
import { DeciderSpecification } from '../../test/helpers/decider-spec.ts';

const now = new Date('2026-11-21T10:15:00.123Z');
const ruleId = '44444444-4444-4444-8444-444444444444';
const teamId = '22222222-2222-4222-8222-222222222222';
const otherTeam = '55555555-5555-4555-8555-555555555555';
const email: AutomationAction = { type: 'send_email', subject: 'Thanks', body: 'Thank you' };
const webhook: AutomationAction = { type: 'send_webhook', url: 'https://hooks.example.com/a' };
const at = now.toISOString();

const given = DeciderSpecification.for(automationRuleDecider);

const create = (
  overrides: Partial<Extract<AutomationRuleCommand, { type: 'CreateAutomationRule' }>['data']> = {},
): AutomationRuleCommand => ({
  type: 'CreateAutomationRule',
  data: {
    rule_id: ruleId,
    team_id: teamId,
    name: 'Thank you',
    trigger: 'onboarding.completed',
    action: email,
    enabled: true,
    plan_has_automations: true,
    ...overrides,
  },
  metadata: { now },
});
const update = (
  data: Omit<
    Extract<AutomationRuleCommand, { type: 'UpdateAutomationRule' }>['data'],
    'team_id' | 'plan_has_automations'
  > & { plan?: boolean; team?: string },
): AutomationRuleCommand => ({
  type: 'UpdateAutomationRule',
  data: {
    team_id: data.team ?? teamId,
    name: data.name,
    action: data.action,
    enabled: data.enabled,
    plan_has_automations: data.plan ?? true,
  },
  metadata: { now },
});
const base = { rule_id: ruleId, team_id: teamId };
const created: AutomationRuleEvent = {
  type: 'automation_rule.created',
  data: {
    ...base,
    name: 'Thank you',
    trigger: 'onboarding.completed',
    action: email,
    enabled: true,
    created_at: at,
  },
};
const disabled: AutomationRuleEvent = {
  type: 'automation_rule.disabled',
  data: { ...base, disabled_at: at },
};
const deleted: AutomationRuleEvent = { type: 'automation_rule.deleted', data: { ...base, deleted_at: at } };

describe('automation rule decider', () => {
  it('given nothing, when created, then automation_rule.created (on unless created off)', () => {
    given([]).when(create()).then([created]);
    given([])
      .when(create({ enabled: false }))
      .then([{ ...created, data: { ...created.data, enabled: false } }]);
  });

  it('a plan without automations cannot add a rule', () => {
    given([])
      .when(create({ plan_has_automations: false }))
      .thenThrows('automations_plan_required');
  });

  it('lengths are invariants of the rule', () => {
    given([])
      .when(create({ name: 'x'.repeat(201) }))
      .thenThrows('invalid_body');
    given([])
      .when(create({ action: { ...email, subject: 's'.repeat(501) } }))
      .thenThrows('invalid_body');
    given([])
      .when(create({ action: { ...email, body: 'b'.repeat(10_001) } }))
      .thenThrows('invalid_body');
    given([])
      .when(create({ action: { type: 'notify_member', member_id: teamId, message: '' } }))
      .thenThrows('invalid_body');
  });

  it('given a rule, when edited, then only what changed; switching is its own event', () => {
    given([created])
      .when(update({ name: 'Thank you', action: webhook, enabled: false }))
      .then([
        { type: 'automation_rule.updated', data: { ...base, changes: { action: webhook }, updated_at: at } },
        disabled,
      ]);
    given([created])
      .when(update({ name: 'Thank you', action: email, enabled: true }))
      .then([]);
    given([created, disabled])
      .when(update({ enabled: true }))
      .then([{ type: 'automation_rule.enabled', data: { ...base, enabled_at: at } }]);
  });

  it('without automations: switch off and delete only', () => {
    given([created])
      .when(update({ enabled: false, plan: false }))
      .then([disabled]);
    given([created, disabled])
      .when(update({ enabled: true, plan: false }))
      .thenThrows('automations_plan_required');
    given([created])
      .when(update({ name: 'New', plan: false }))
      .thenThrows('automations_plan_required');
    given([created])
      .when({ type: 'DeleteAutomationRule', data: { team_id: teamId }, metadata: { now } })
      .then([deleted]);
  });

  it("another team's, an unknown or a deleted rule is not found", () => {
    given([])
      .when(update({ enabled: false }))
      .thenThrows('rule_not_found');
    given([created])
      .when(update({ enabled: false, team: otherTeam }))
      .thenThrows('rule_not_found');
    given([created, deleted])
      .when(update({ name: 'x' }))
      .thenThrows('rule_not_found');
    given([created, deleted])
      .when({ type: 'DeleteAutomationRule', data: { team_id: teamId }, metadata: { now } })
      .thenThrows('rule_not_found');
  });
});

describe('latest-run line', () => {
  it('reads as the service decided', () => {
    expect(latestRunLine(null, 'UTC')).toBe('Has not run yet');
    expect(latestRunLine({ outcome: 'succeeded', reason: null, ran_at: now }, 'UTC')).toBe(
      'Last ran Nov 21, 2026, 10:15 AM UTC',
    );
    expect(latestRunLine({ outcome: 'succeeded', reason: null, ran_at: now }, 'America/New_York')).toBe(
      'Last ran Nov 21, 2026, 5:15 AM EST',
    );
    expect(latestRunLine({ outcome: 'retrying', reason: 'HTTP 500', ran_at: now }, 'UTC')).toBe(
      'Failed, trying again: HTTP 500',
    );
    expect(latestRunLine({ outcome: 'stopped', reason: 'HTTP 400', ran_at: now }, 'UTC')).toBe(
      'Failed: HTTP 400 (stopped)',
    );
    expect(formatRunTime(now, 'Not/AZone')).toBe('Nov 21, 2026, 10:15 AM UTC');
  });
});

describe('run policy', () => {
  it('passes every 5 minutes; waits double from 5 minutes; Retry-After up to 1 hour honoured', () => {
    expect(passAtOrAfter(now).toISOString()).toBe('2026-11-21T10:20:00.000Z');
    expect(passOf(now).toISOString()).toBe('2026-11-21T10:15:00.000Z');
    expect([1, 2, 3, 4, 9].map((n) => retryWaitMs(n) / 60_000)).toEqual([5, 10, 20, 40, 1280]);
    const attempt = new Date('2026-11-21T10:20:00.123Z');
    expect(nextAttemptAt(attempt, 1).toISOString()).toBe('2026-11-21T10:25:00.000Z');
    expect(nextAttemptAt(attempt, 3).toISOString()).toBe('2026-11-21T10:40:00.000Z');
    expect(nextAttemptAt(attempt, 1, 1490).toISOString()).toBe('2026-11-21T10:45:00.000Z');
    expect(nextAttemptAt(attempt, 1, 1500).toISOString()).toBe('2026-11-21T10:50:00.000Z');
    expect(nextAttemptAt(attempt, 1, 10).toISOString()).toBe('2026-11-21T10:25:00.000Z');
    expect(nextAttemptAt(attempt, 1, 7200).toISOString()).toBe('2026-11-21T10:25:00.000Z');
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(new Date(now.getTime() + 90_000).toUTCString(), now)).toBe(90);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
  });
});

describe('placeholders', () => {
  const values: PlaceholderValues = {
    client_name: 'Ada',
    client_email: 'ada@example.com',
    team_name: 'Acme',
    template_name: 'Tax intake',
    company: '',
    due_date: '',
    progress_pct: '40',
    event_type: 'onboarding.completed',
  };
  it('fills known names (spaces allowed), keeps unknown ones and text as typed', () => {
    expect(
      fillPlaceholders(
        'Hi {{client_name}}, {{ team_name }} <b>{{progress_pct}}%</b> {{nope}} {{company}}.',
        values,
      ),
    ).toBe('Hi Ada, Acme <b>40%</b> {{nope}} .');
  });
  it('{{due_date}}: a calendar date as given, a timestamp as its date in the zone, blank without one', () => {
    expect(
      formatDueDate({ due_date: '2026-12-01T23:59:59.999+01:00', due_on: '2026-12-01' }, 'DD/MM/YYYY', 'UTC'),
    ).toBe('01/12/2026');
    expect(
      formatDueDate({ due_date: '2026-12-01T23:30:00Z', due_on: null }, 'YYYY-MM-DD', 'Europe/Berlin'),
    ).toBe('2026-12-02');
    expect(formatDueDate({ due_date: '2026-12-01T23:30:00Z', due_on: null }, 'MM/DD/YYYY', 'UTC')).toBe(
      '12/01/2026',
    );
    expect(formatDueDate(null, 'MM/DD/YYYY', 'UTC')).toBe('');
  });
});
