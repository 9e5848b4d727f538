import { storedValue } from '../../shared/privacy/sealed-columns.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import { toAuditRecord } from '../events/index.ts';
import {
  AUTOMATION_RULE_EVENT_TYPES,
  AUTOMATION_TRIGGERS,
  isAutomationTrigger,
  type AutomationAction,
  type AutomationRuleEvent,
} from './automation-rule-events.ts';
import { passAtOrAfter } from './run-policy.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { EventConsumer } from '../../shared/subscriptions/event-consumer.ts';
import { awaitReadModels, CONSUMER_READ_MODELS_WAIT_MS } from '../../shared/commands/read-your-writes.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { derivedUuid } from '../../shared/ids/derived-id.ts';
import { onboardingAt } from '../hooks/index.ts';
import { CLIENT_NOT_ERASED } from './run-facts.ts';
import { webhookBody } from './webhook-body.ts';

/** What the consumer keeping the rules and queuing runs uses. */
export type AutomationRulesConsumerDeps = Pick<Platform, 'eventStore' | 'logger' | 'projections' | 'vault'>;

/**
 * The consumer `automation-rules` (subscription port): reads the rule events and the four
 * trigger events in log order.
 *
 * - Rule events keep automation_rule_triggers (its view of every rule).
 * - A trigger event queues one run per enabled rule of the event's team with that trigger
 *   (table automation_runs, in the transaction that marks the event handled), with a copy
 *   of the rule's action as it is at that moment; a Send webhook run also gets its body,
 *   built from the values of that moment. The run is due at the first 5-minute queue pass
 *   at or after the moment the event occurred (its own time, not when this consumer gets
 *   to it).
 *
 * On the log adapter, rule events and trigger events arrive in one order, so a trigger
 * meets exactly the rules that existed before it. (Kafka keeps order per stream only: an
 * edit made at the same moment as an event may or may not apply to it.)
 */
export function automationRulesConsumer(context: AutomationRulesConsumerDeps): EventConsumer {
  return {
    name: 'automation-rules',
    eventTypes: [...AUTOMATION_RULE_EVENT_TYPES, ...AUTOMATION_TRIGGERS],
    async handle(event, tx) {
      if (isAutomationTrigger(event.type)) await queueRuns(context, tx, event);
      else await applyRuleEvent(tx, event);
    },
  };
}

async function applyRuleEvent(tx: PoolClient, recorded: RecordedEvent): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as AutomationRuleEvent;
  const position = String(recorded.position);
  switch (event.type) {
    case 'automation_rule.created':
      await tx.query(
        `insert into automation_rule_triggers (rule_id, team_id, name, trigger, action, enabled, position)
         values ($1, $2, $3, $4, $5, $6, $7) on conflict (rule_id) do nothing`,
        [
          event.data.rule_id,
          event.data.team_id,
          event.data.name,
          event.data.trigger,
          JSON.stringify(event.data.action),
          event.data.enabled,
          position,
        ],
      );
      break;
    case 'automation_rule.updated':
      await tx.query(
        `update automation_rule_triggers
         set name = coalesce($2, name), action = coalesce($3::jsonb, action), position = $4
         where rule_id = $1`,
        [
          event.data.rule_id,
          event.data.changes.name ?? null,
          event.data.changes.action ? JSON.stringify(event.data.changes.action) : null,
          position,
        ],
      );
      break;
    case 'automation_rule.enabled':
    case 'automation_rule.disabled':
      await tx.query('update automation_rule_triggers set enabled = $2, position = $3 where rule_id = $1', [
        event.data.rule_id,
        event.type === 'automation_rule.enabled',
        position,
      ]);
      break;
    case 'automation_rule.deleted':
      await tx.query(
        'update automation_rule_triggers set deleted = true, enabled = false, position = $2 where rule_id = $1',
        [event.data.rule_id, position],
      );
      break;
    default:
      break;
  }
}

interface RuleRow {
  rule_id: string;
  name: string;
  action: AutomationAction;
}

async function queueRuns(
  context: AutomationRulesConsumerDeps,
  tx: PoolClient,
  event: RecordedEvent,
): Promise<void> {
  const teamId = (event.data as { team_id?: unknown } | null)?.team_id;
  if (typeof teamId !== 'string') return;
  const { rows: rules } = await tx.query<RuleRow>(
    `select rule_id, name, action from automation_rule_triggers
     where team_id = $1 and trigger = $2 and enabled and not deleted
     order by position, rule_id`,
    [teamId, event.type],
  );
  if (rules.length === 0) return;
  const onboarding = await onboardingAt(context.eventStore, event);
  if (!onboarding) {
    context.logger.warn(
      { eventId: event.id, type: event.type },
      'trigger event without an onboarding; no runs',
    );
    return;
  }
  await awaitReadModels(context, event.position, { timeoutMs: CONSUMER_READ_MODELS_WAIT_MS });
  const { rows } = await tx.query<{ name: string | null; email: string | null }>(
    `select name, email from clients c where c.id = $1 and c.team_id = $2 and ${CLIENT_NOT_ERASED}`,
    [onboarding.client_id, teamId],
  );
  // Sealed at rest: the body keeps the envelopes (webhook-body.ts).
  const client = { name: storedValue(rows[0]?.name), email: storedValue(rows[0]?.email) };
  const occurredAt = toAuditRecord(event)?.occurredAt ?? event.recordedAt.toISOString();
  // Queued when the event occurred (its own time), whenever this consumer gets to it.
  const queuedAt = new Date(occurredAt);
  for (const rule of rules) {
    const runId = runIdOf(rule.rule_id, event.id);
    const body =
      rule.action.type === 'send_webhook'
        ? JSON.stringify(await webhookBody(runId, event, onboarding, client, occurredAt))
        : null;
    await tx.query(
      `insert into automation_runs
         (id, rule_id, team_id, rule_name, trigger, event_id, onboarding_id, action, request_body,
          state, next_attempt_at, queued_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'queued', $10, $11, $11)
       on conflict (rule_id, event_id) do nothing`,
      [
        runId,
        rule.rule_id,
        teamId,
        rule.name,
        event.type,
        event.id,
        onboarding.id,
        JSON.stringify(rule.action),
        body,
        passAtOrAfter(queuedAt),
        queuedAt,
      ],
    );
  }
}

/** The run of one rule for one event: a UUID derived from both (the same on a redelivery). */
export const runIdOf = (ruleId: string, eventId: string) =>
  derivedUuid(`automation-run:${ruleId}:${eventId}`);
