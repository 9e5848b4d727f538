import type { Settings } from '../../shared/config/settings.ts';
import { IDEMPOTENCY_RETENTION_MS } from '../../shared/commands/idempotency.ts';
import type { Purge } from '../../shared/retention/batched-purge.ts';

/**
 * What the service keeps and for how long (docs/decisions/0020-retention.md). Only finished rows go:
 * nothing still queued, retrying or scheduled, and nothing another part still reads.
 * Periods are by the service clock; each purge says which column starts its period.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const days = (count: number) => count * DAY_MS;

/** Onboardings whose link still works and whose timers may still be scheduled. */
const ONBOARDING_IS_LIVE = `exists (select 1 from onboardings o
  where o.id = $row.onboarding_id and o.status in ('sent', 'in_progress'))`;

export const retentionPurges: readonly Purge<Settings>[] = [
  {
    // The spec's idempotency window: after 24 hours the same value runs as a new command.
    name: 'idempotency-records',
    table: 'idempotency_records',
    keepMs: () => IDEMPOTENCY_RETENTION_MS,
    pastPeriod: () => '$row.created_at < $1',
  },
  {
    // A create's planned id and token with EventStoreDB: needed only within the same window.
    name: 'eventstoredb-create-intents',
    table: 'eventstoredb_create_intents',
    keepMs: () => IDEMPOTENCY_RETENTION_MS,
    pastPeriod: () => '$row.created_at < $1',
  },
  {
    // The workspace's key creation and rotation checks: the same 24-hour window.
    name: 'workspace-key-requests',
    table: 'workspace_key_requests',
    keepMs: () => IDEMPOTENCY_RETENTION_MS,
    pastPeriod: () => '$row.created_at < $1',
  },
  {
    // processed_at: when the consumer handled the event, by the service clock.
    name: 'processed-events',
    table: 'processed_events',
    keepMs: (settings) => days(settings.PROCESSED_EVENTS_RETENTION_DAYS),
    pastPeriod: () => '$row.processed_at < $1',
  },
  {
    // A handled Stripe event id: kept well past Stripe's three days of retries, so that a
    // late repeat still changes nothing (services/payments/handled-stripe-events.ts).
    name: 'stripe-events-handled',
    table: 'stripe_events_handled',
    keepMs: (settings) => days(settings.PROCESSED_EVENTS_RETENTION_DAYS),
    pastPeriod: () => '$row.handled_at < $1',
  },
  {
    // Hook and signed webhook deliveries that are finished (delivered or failed for good),
    // with their attempts; updated_at is their last attempt (or replay).
    name: 'hook-deliveries',
    table: 'hook_deliveries',
    keepMs: (settings) => days(settings.DELIVERY_LOG_RETENTION_DAYS),
    pastPeriod: () => "$row.state in ('delivered', 'failed') and $row.updated_at < $1",
    dependents: [{ table: 'hook_delivery_attempts', column: 'delivery_id', key: 'id' }],
  },
  {
    // Finished automation runs (succeeded, skipped, stopped); the rule's latest-run line stays.
    name: 'automation-runs',
    table: 'automation_runs',
    keepMs: (settings) => days(settings.AUTOMATION_RUN_RETENTION_DAYS),
    pastPeriod: () =>
      '$row.finished_at is not null and $row.next_attempt_at is null and $row.finished_at < $1',
  },
  {
    // A fired timer's key keeps it from being scheduled again, so timers of an onboarding
    // that is still sent or in progress stay.
    name: 'onboarding-timers',
    table: 'onboarding_timers',
    keepMs: (settings) => days(settings.TIMER_RETENTION_DAYS),
    pastPeriod: () =>
      `$row.status in ('fired', 'cancelled') and $row.updated_at < $1 and not ${ONBOARDING_IS_LIVE}`,
  },
  {
    // Sent and failed mail; without SMTP_URL the outbox is the record, so queued mail too.
    // Invites and reminders of an onboarding whose link still works stay (reminders and
    // the operator's link read the link from them).
    name: 'mail',
    table: 'mail_outbox',
    keepMs: (settings) => days(settings.MAIL_RETENTION_DAYS),
    pastPeriod: (settings) => {
      const finished = settings.SMTP_URL ? "('sent', 'failed')" : "('sent', 'failed', 'queued')";
      return `$row.status in ${finished} and coalesce($row.sent_at, $row.created_at) < $1
        and ($row.onboarding_id is null or not ${ONBOARDING_IS_LIVE})`;
    },
  },
];
