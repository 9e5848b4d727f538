import type { PoolClient } from '../../shared/db/pool.ts';

/**
 * An endpoint (a team's target host) that gave no answer rests: its deliveries are not
 * claimed until the rest ends (table hook_endpoint_backoffs, service clock), so a dead or
 * hanging host costs a few probes per rest instead of a connect time-out per delivery, and
 * delays only itself. The rest is 5 seconds after the first failure in a row, doubling up
 * to 5 minutes: never longer than the failed delivery's own wait before its next attempt.
 * Any answer (even an error status) ends it.
 */

export const FIRST_REST_SECONDS = 5;
export const LONGEST_REST_SECONDS = 5 * 60;

/**
 * Records a failure without answer of an attempt begun at `attemptAt`, at `failedAt`.
 * Failures of requests that were already in flight when the endpoint began to rest count
 * as one (the probes of one round fail together).
 */
export async function restEndpoint(
  tx: PoolClient,
  teamId: string,
  host: string | null,
  attemptAt: Date,
  failedAt: Date,
): Promise<void> {
  if (!host) return;
  await tx.query(
    `insert into hook_endpoint_backoffs as rest (team_id, target_host, failures, resting_until)
     values ($1, $2, 1, $4::timestamptz + make_interval(secs => $5))
     on conflict (team_id, target_host) do update
       set failures = rest.failures + case when rest.resting_until > $3 then 0 else 1 end,
           resting_until = greatest(
             rest.resting_until,
             $4::timestamptz + make_interval(secs => least(
               $6::float8,
               $5::float8 * power(2, rest.failures + case when rest.resting_until > $3 then 0 else 1 end - 1))))`,
    [teamId, host, attemptAt, failedAt, FIRST_REST_SECONDS, LONGEST_REST_SECONDS],
  );
}

/** The endpoint answered: its deliveries are claimed again right away. */
export async function wakeEndpoint(tx: PoolClient, teamId: string, host: string | null): Promise<void> {
  if (!host) return;
  await tx.query('delete from hook_endpoint_backoffs where team_id = $1 and target_host = $2', [
    teamId,
    host,
  ]);
}
