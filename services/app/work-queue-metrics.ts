import type { Clock } from '../../shared/clock.ts';
import type { Pool } from '../../shared/db/pool.ts';
import { queryWithTimeout } from '../../shared/db/query-with-timeout.ts';

/** The queues an operator watches, each a table of rows waiting for their effect. */
export const QUEUES = ['hooks', 'webhooks', 'automation', 'mail', 'timers'] as const;
export type QueueName = (typeof QUEUES)[number];

export interface QueueBacklog {
  queue: QueueName;
  depth: number;
  /** Seconds since the oldest waiting row was queued (timers: since it fell due); 0 when empty. */
  oldestAgeSeconds: number;
}

/**
 * Unfinished rows per queue, in one read. Hook subscriptions and signed webhook endpoints
 * share hook_deliveries (target_kind); automation runs wait while queued or failed with a
 * retry ahead; mail waits while queued; a timer waits once it is due and still scheduled.
 * Ages are measured on the service clock, which stamped the rows.
 */
export async function readQueueBacklogs(
  pool: Pool,
  clock: Clock,
  timeoutMs: number,
): Promise<QueueBacklog[]> {
  const rows = await queryWithTimeout<{ queue: QueueName; depth: string; oldest: Date | null }>(
    pool,
    `select case target_kind when 'endpoint' then 'webhooks' else 'hooks' end as queue, count(*) as depth, min(created_at) as oldest
       from hook_deliveries where state in ('pending', 'retrying') group by 1
     union all
     select 'automation', count(*), min(queued_at)
       from automation_runs where state = 'queued' or (state = 'failed' and failure = 'retrying')
     union all
     select 'mail', count(*), min(created_at) from mail_outbox where status = 'queued'
     union all
     select 'timers', count(*), min(due_at) from onboarding_timers where status = 'scheduled' and due_at <= $1`,
    [clock.now()],
    timeoutMs,
  );
  const now = clock.now().getTime();
  return QUEUES.map((queue) => {
    const row = rows.find((candidate) => candidate.queue === queue);
    return {
      queue,
      depth: Number(row?.depth ?? 0),
      oldestAgeSeconds: row?.oldest ? Math.max(0, (now - row.oldest.getTime()) / 1000) : 0,
    };
  });
}

export interface DeliveryOutcome {
  queue: QueueName;
  outcome: string;
  count: number;
}

/**
 * Finished rows per queue and outcome, in one read (the rows the service keeps: delivered
 * and failed hooks and webhooks, succeeded, skipped and finally failed automation runs, sent and
 * failed mail). A gauge, not a counter: it is what the tables hold now.
 */
export async function readDeliveryOutcomes(pool: Pool, timeoutMs: number): Promise<DeliveryOutcome[]> {
  const rows = await queryWithTimeout<{ queue: QueueName; outcome: string; count: string }>(
    pool,
    `select case target_kind when 'endpoint' then 'webhooks' else 'hooks' end as queue, state as outcome, count(*) as count
       from hook_deliveries where state in ('delivered', 'failed') group by 1, 2
     union all
     select 'automation', state, count(*)
       from automation_runs where state in ('succeeded', 'skipped') or (state = 'failed' and failure = 'stopped') group by 2
     union all
     select 'mail', status, count(*) from mail_outbox where status in ('sent', 'failed') group by 2`,
    [],
    timeoutMs,
  );
  return rows.map((row) => ({ queue: row.queue, outcome: row.outcome, count: Number(row.count) }));
}
