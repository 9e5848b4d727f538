import type { PoolClient } from '../../shared/db/pool.ts';
import {
  externalCommandConflict,
  fingerprintMatches,
  fingerprintOf,
  openFor,
  sealFor,
  IDEMPOTENCY_RETENTION_MS,
  type IdempotencyRequest,
} from '../../shared/commands/idempotency.ts';

/**
 * A create's plan with EventStoreDB (infra/migrations/099_eventstoredb_create_intents.sql).
 * The onboarding id and the client token are random per request, and the token exists
 * nowhere but in the answer, so a create whose idempotency record was lost to a crash
 * after its append could not be answered again. The plan commits with the parked rows,
 * before the append; a retry with the same Idempotency-Key reuses it: the stream then
 * holds the create's events (the pipeline answers from them) or never will (the same
 * onboarding is created now).
 */

export interface PlannedCreate {
  onboardingId: string;
  token: string;
}

/** The plan of an earlier attempt with this key, within the idempotency window; another body is a 409. */
export async function plannedCreate(
  tx: PoolClient,
  request: IdempotencyRequest,
  now: Date,
): Promise<PlannedCreate | undefined> {
  const { rows } = await tx.query<{
    fingerprint: string;
    onboarding_id: string;
    sealed_token: Buffer;
    created_at: Date;
  }>(
    `select fingerprint, onboarding_id, sealed_token, created_at from eventstoredb_create_intents
     where api_key_id = $1 and key = $2`,
    [request.apiKeyId, request.key],
  );
  const row = rows[0];
  if (!row || now.getTime() - row.created_at.getTime() >= IDEMPOTENCY_RETENTION_MS) return undefined;
  if (!fingerprintMatches(row.fingerprint, request)) throw externalCommandConflict();
  return {
    onboardingId: row.onboarding_id,
    token: openFor<{ token: string }>(request, row.sealed_token).token,
  };
}

/** Keeps the plan; in the park's transaction, so it exists before the events can. */
export async function recordPlannedCreate(
  tx: PoolClient,
  request: IdempotencyRequest,
  planned: PlannedCreate,
  now: Date,
): Promise<void> {
  await tx.query(
    `insert into eventstoredb_create_intents (api_key_id, key, fingerprint, onboarding_id, sealed_token, created_at)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (api_key_id, key) do update
       set fingerprint = excluded.fingerprint, onboarding_id = excluded.onboarding_id,
           sealed_token = excluded.sealed_token, created_at = excluded.created_at`,
    [
      request.apiKeyId,
      request.key,
      fingerprintOf(request),
      planned.onboardingId,
      sealFor(request, { token: planned.token }),
      now,
    ],
  );
}

/** Once the command's transaction keeps the idempotency answer, the plan has done its job. */
export async function forgetPlannedCreate(tx: PoolClient, request: IdempotencyRequest): Promise<void> {
  await tx.query('delete from eventstoredb_create_intents where api_key_id = $1 and key = $2', [
    request.apiKeyId,
    request.key,
  ]);
}
