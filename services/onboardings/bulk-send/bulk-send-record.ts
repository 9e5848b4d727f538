import type { Pool } from '../../../shared/db/pool.ts';
import type { SendResult } from './send-each.ts';

/*
 * The record of one bulk send per idempotency key (infra/migrations/149_bulk_sends.sql):
 * the first request claims the key, a second one (a double click, a retry) waits for the
 * first's answer and gives it again. A claim whose answer never came (the service stopped
 * mid-way) is taken over after STALE_MS: the sends' ids are derived from the key
 * (send-each.ts), so the takeover sends only what the first did not.
 */

export interface BulkSendAnswer {
  template_id: string;
  results: SendResult[];
}

/** A claim older than this without an answer belongs to a run that stopped. */
const STALE_MS = 120_000;
/** How long a second request waits for the first's answer. */
const WAIT_MS = 60_000;
const POLL_MS = 100;

/** 'run': this request sends; else the answer of the request that did. */
export async function claimBulkSend(
  pool: Pick<Pool, 'query'>,
  teamId: string,
  key: string,
  memberId: string,
  now: Date,
): Promise<'run' | BulkSendAnswer | 'busy'> {
  const claimed = await pool.query(
    `insert into bulk_sends (team_id, idempotency_key, member_id, started_at)
     values ($1, $2, $3, $4)
     on conflict (team_id, idempotency_key) do update set started_at = excluded.started_at, member_id = excluded.member_id
       where bulk_sends.answer is null and bulk_sends.started_at < $4::timestamptz - make_interval(secs => $5::double precision / 1000)
     returning 1`,
    [teamId, key, memberId, now, STALE_MS],
  );
  if (claimed.rowCount) return 'run';
  for (let waited = 0; waited < WAIT_MS; waited += POLL_MS) {
    const row = await pool.query<{ answer: BulkSendAnswer | null }>(
      'select answer from bulk_sends where team_id = $1 and idempotency_key = $2',
      [teamId, key],
    );
    if (row.rows[0]?.answer) return row.rows[0].answer;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return 'busy';
}

export async function recordBulkSend(
  pool: Pick<Pool, 'query'>,
  teamId: string,
  key: string,
  answer: BulkSendAnswer,
): Promise<void> {
  await pool.query('update bulk_sends set answer = $3 where team_id = $1 and idempotency_key = $2', [
    teamId,
    key,
    JSON.stringify(answer),
  ]);
}

/** Gives the key back when the run failed (a 5xx): a retry runs again. */
export async function releaseBulkSend(pool: Pick<Pool, 'query'>, teamId: string, key: string): Promise<void> {
  await pool.query('delete from bulk_sends where team_id = $1 and idempotency_key = $2 and answer is null', [
    teamId,
    key,
  ]);
}
