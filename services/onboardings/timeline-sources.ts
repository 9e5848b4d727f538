import type { ReadClient } from '../../projections/read-client.ts';
import type { DeliveryRow, MailRow, RunRow } from './onboarding-timeline.ts';

/**
 * What an onboarding's timeline (./onboarding-timeline.ts) shows besides its events: the
 * mails about it (mail_outbox), the hook deliveries of its events (hook_deliveries) and the
 * automation runs it triggered (automation_runs), each scoped by the team. Timestamps are
 * read as PostgreSQL text and answered as ISO 8601.
 */
export async function timelineSources(
  db: ReadClient,
  teamId: string,
  onboardingId: string,
  eventIds: readonly string[],
): Promise<{ mails: MailRow[]; deliveries: DeliveryRow[]; runs: RunRow[] }> {
  const [mails, deliveries, runs] = await Promise.all([
    db.query<MailRow>(
      `select kind, status, created_at::text as created_at, sent_at::text as sent_at from mail_outbox
       where onboarding_id = $1 and team_id = $2`,
      [onboardingId, teamId],
    ),
    db.query<DeliveryRow>(
      `select event_type, state, attempts, last_status_code, created_at::text as created_at,
              updated_at::text as updated_at
       from hook_deliveries where team_id = $1 and event_id = any($2::uuid[])`,
      [teamId, eventIds],
    ),
    db.query<RunRow>(
      `select rule_name, trigger, state, queued_at::text as queued_at, finished_at::text as finished_at
       from automation_runs where team_id = $1 and onboarding_id = $2`,
      [teamId, onboardingId],
    ),
  ]);
  return { mails: mails.rows.map(iso), deliveries: deliveries.rows.map(iso), runs: runs.rows.map(iso) };
}

/** PostgreSQL's text timestamps ("2026-01-01 10:00:00+00") as ISO 8601. */
function iso<Row extends object>(row: Row): Row {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      key.endsWith('_at') && typeof value === 'string' ? new Date(value).toISOString() : value,
    ]),
  ) as Row;
}
