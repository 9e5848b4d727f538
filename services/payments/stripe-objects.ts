import { z } from 'zod';

/*
 * The parts of Stripe's objects the webhook handlers read, checked with zod (everything
 * else in the object is ignored). An expandable field arrives as an id or, expanded, as
 * the object: either way the handlers get the id.
 */

/** An id, or the expanded object's id. */
const idOf = z.union([z.string(), z.object({ id: z.string() }).transform((object) => object.id)]);

const metadata = z
  .record(z.string())
  .nullish()
  .transform((value) => value ?? {});

/** The metadata the portal's Checkout writes (session, payment intent, subscription). */
export interface OnboardingPaymentMetadata {
  onboarding_id?: string;
  field_id?: string;
  team_id?: string;
}

export const checkoutSessionSchema = z.object({
  id: z.string(),
  mode: z.string(),
  payment_status: z.string(),
  amount_total: z.number().int().nullable(),
  payment_intent: idOf.nullish(),
  subscription: idOf.nullish(),
  metadata,
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

export const invoiceSchema = z.object({
  id: z.string(),
  billing_reason: z.string().nullish(),
  amount_paid: z.number().int(),
  /** Before the 2025 API versions: the invoice's subscription. */
  subscription: idOf.nullish(),
  /** Since then: parent.subscription_details (its subscription and metadata). */
  parent: z
    .object({
      subscription_details: z.object({ subscription: idOf.nullish(), metadata }).nullish(),
    })
    .nullish(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const subscriptionSchema = z.object({ id: z.string(), metadata });

export const chargeSchema = z.object({
  id: z.string(),
  payment_intent: idOf.nullish(),
  amount_refunded: z.number().int(),
  refunded: z.boolean(),
  metadata,
});

export const accountSchema = z.object({
  id: z.string(),
  charges_enabled: z.boolean(),
  details_submitted: z.boolean(),
});

/** The invoice's subscription id, in either API version's place. */
export const subscriptionOfInvoice = (invoice: Invoice): string | null =>
  invoice.parent?.subscription_details?.subscription ?? invoice.subscription ?? null;
