import type { PoolClient } from '../../shared/db/pool.ts';
import { withoutPersonalData } from './webhook-body.ts';

/**
 * The automation side of a client's erasure (one of CLIENT_ERASURE_STEPS,
 * services/clients/client-erasure.ts), inside the erasure's last transaction, for the
 * runs of the client's onboardings that are still pending (queued, or failed and retrying):
 *
 * - a Send webhook run keeps its body (sent unchanged on every retry) with client_name,
 *   client_email, signer_name and signer_email null, as a body built after the erasure
 *   would have them; finished runs hold no body;
 * - the other runs are left to the queue: from the moment the client's key is erased the
 *   actions read the client as erased (run-facts.ts), so Send email stops ("client has no
 *   valid email address"), Create new onboarding stops ("client erased") and Notify team
 *   member fills the client's placeholders with nothing.
 *
 * Every pending run of those onboardings is locked first. An action holds its run's row
 * from the start of its transaction (actions.ts), so an action that read the client before
 * the erasure has committed its email by the time this step goes on (the erasure's outbox
 * scrub, after the steps, then clears it), and one that starts later reads the client as
 * erased.
 */
export async function eraseClientFromRuns(
  tx: Pick<PoolClient, 'query'>,
  client: { teamId: string; onboardingIds: string[] },
): Promise<void> {
  const { rows } = await tx.query<{ id: string; request_body: string | null }>(
    `select id, request_body from automation_runs
     where team_id = $1 and onboarding_id = any($2::uuid[])
       and state in ('queued', 'failed') and next_attempt_at is not null
     order by id
     for update`,
    [client.teamId, client.onboardingIds],
  );
  for (const run of rows) {
    if (run.request_body === null) continue;
    const body = withoutPersonalData(run.request_body);
    if (body !== run.request_body) {
      await tx.query('update automation_runs set request_body = $2 where id = $1', [run.id, body]);
    }
  }
}
