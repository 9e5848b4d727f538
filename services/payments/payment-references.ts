import type { PoolClient } from '../../shared/db/pool.ts';

/*
 * stripe_payment_references (infra/migrations/137_stripe_webhooks.sql): the processor's ids
 * of a recorded payment -> its onboarding, field, team and connected account. Written with
 * payment.succeeded; read by the later events, which carry only Stripe's ids.
 */

export type ReferenceKind = 'payment_intent' | 'subscription' | 'checkout_session';

/** Where a payment of Stripe belongs. */
export interface PaymentTarget {
  onboarding_id: string;
  field_id: string;
  team_id: string;
  stripe_account_id: string;
}

/** Writes the references of a payment (an id already written keeps its first row). */
export async function writePaymentReferences(
  tx: PoolClient,
  target: PaymentTarget,
  references: ReadonlyArray<{ kind: ReferenceKind; reference: string }>,
  now: Date,
): Promise<void> {
  if (references.length === 0) return;
  await tx.query({
    name: 'stripe_references_write',
    text: `insert into stripe_payment_references
             (reference, kind, onboarding_id, field_id, team_id, stripe_account_id, created_at)
           select r.reference, r.kind, $3, $4, $5, $6, $7
           from unnest($1::text[], $2::text[]) as r(reference, kind)
           on conflict (reference) do nothing`,
    values: [
      references.map((entry) => entry.reference),
      references.map((entry) => entry.kind),
      target.onboarding_id,
      target.field_id,
      target.team_id,
      target.stripe_account_id,
      now,
    ],
  });
}

/** The payment a processor id belongs to; null when no recorded payment has it. */
export async function paymentOfReference(
  tx: PoolClient,
  kind: ReferenceKind,
  reference: string,
): Promise<PaymentTarget | null> {
  const { rows } = await tx.query<PaymentTarget>({
    name: 'stripe_references_read',
    text: `select onboarding_id, field_id, team_id, stripe_account_id
           from stripe_payment_references where reference = $1 and kind = $2`,
    values: [reference, kind],
  });
  return rows[0] ?? null;
}
