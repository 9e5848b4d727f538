import { isDeepStrictEqual } from 'node:util';
import type { OnboardingEvent } from '../onboarding-events.ts';
import type { LocatedField } from '../template-snapshot.ts';
import type {
  MarkPaid,
  RecordPayment,
  RecordPaymentFailure,
  RecordRefund,
  RecordSubscriptionEnd,
  RecordSubscriptionRenewal,
  RefreshTemplate,
} from './commands.ts';
import { base, fail, iso, requireExisting, requireField, requireForApi } from './rules.ts';
import type { Onboarding, OnboardingState } from './state.ts';

/**
 * Payments of payment fields: what Stripe confirms (the webhook), what the team records
 * itself (Mark as paid), and a draft's refresh from its fixed template. Every processor
 * fact is recorded once: payment.succeeded per payment intent, the rest per `recordKey`.
 */

/** The key under which a processor fact is kept in `payment_records`. */
export const recordKey = {
  failure: (checkoutSessionId: string) => `failed:${checkoutSessionId}`,
  renewal: (invoiceId: string) => `invoice:${invoiceId}`,
  subscriptionEnd: (subscriptionId: string) => `ended:${subscriptionId}`,
  refund: (chargeId: string, amountRefunded: number) => `refund:${chargeId}:${amountRefunded}`,
};

/** A payment field of an onboarding the processor may still tell about (sent at least once, not erased). */
function paymentFieldOf(
  state: OnboardingState,
  fieldId: string,
): { onboarding: Onboarding; field: LocatedField } {
  const onboarding = requireExisting(state);
  if (onboarding.client_erased_at !== null) throw fail('target_unavailable');
  if (onboarding.send_count === 0) throw fail('invalid_state', { status: onboarding.status });
  const field = requireField(onboarding, fieldId);
  if (field.field.type !== 'payment') throw fail('field_not_found');
  return { onboarding, field };
}

const fieldBase = (onboarding: Onboarding, field: LocatedField) => ({
  ...base(onboarding),
  step_id: field.step_id,
  field_id: field.field.id,
});

/** A processor-confirmed payment is recorded once per payment intent, whatever the status after sending. */
export function recordPayment(command: RecordPayment, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const { onboarding, field } = paymentFieldOf(state, data.field_id);
  if (onboarding.archived_at !== null) throw fail('target_unavailable');
  if (onboarding.payment_intents.includes(data.payment_intent_id)) return [];
  return [
    {
      type: 'payment.succeeded',
      data: {
        ...fieldBase(onboarding, field),
        payment_id: data.payment_id,
        payment_intent_id: data.payment_intent_id,
        amount_cents: data.amount_cents,
        subscription_id: data.subscription_id,
        recurring: data.subscription_id !== null,
        interval: data.interval,
        paid_at: iso(metadata.now),
      },
    },
  ];
}

/** A failed Checkout payment of a field not paid since; the client may try again. */
export function recordPaymentFailure(
  command: RecordPaymentFailure,
  state: OnboardingState,
): OnboardingEvent[] {
  const { data, metadata } = command;
  const { onboarding, field } = paymentFieldOf(state, data.field_id);
  const key = recordKey.failure(data.checkout_session_id);
  if (onboarding.payment_records.includes(key) || onboarding.fulfilled_fields.includes(field.field.id))
    return [];
  return [
    {
      type: 'payment_failed',
      data: {
        ...fieldBase(onboarding, field),
        checkout_session_id: data.checkout_session_id,
        payment_intent_id: data.payment_intent_id,
        failed_at: iso(metadata.now),
      },
    },
  ];
}

export function recordSubscriptionRenewal(
  command: RecordSubscriptionRenewal,
  state: OnboardingState,
): OnboardingEvent[] {
  const { data, metadata } = command;
  const { onboarding, field } = paymentFieldOf(state, data.field_id);
  if (onboarding.payment_records.includes(recordKey.renewal(data.invoice_id))) return [];
  return [
    {
      type: 'payment_renewed',
      data: {
        ...fieldBase(onboarding, field),
        subscription_id: data.subscription_id,
        invoice_id: data.invoice_id,
        amount_cents: data.amount_cents,
        paid_at: iso(metadata.now),
      },
    },
  ];
}

export function recordSubscriptionEnd(
  command: RecordSubscriptionEnd,
  state: OnboardingState,
): OnboardingEvent[] {
  const { data, metadata } = command;
  const { onboarding, field } = paymentFieldOf(state, data.field_id);
  if (onboarding.payment_records.includes(recordKey.subscriptionEnd(data.subscription_id))) return [];
  return [
    {
      type: 'payment_subscription_ended',
      data: {
        ...fieldBase(onboarding, field),
        subscription_id: data.subscription_id,
        ended_at: iso(metadata.now),
      },
    },
  ];
}

export function recordRefund(command: RecordRefund, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const { onboarding, field } = paymentFieldOf(state, data.field_id);
  if (onboarding.payment_records.includes(recordKey.refund(data.charge_id, data.amount_refunded_cents)))
    return [];
  return [
    {
      type: 'payment_refunded',
      data: {
        ...fieldBase(onboarding, field),
        payment_intent_id: data.payment_intent_id,
        charge_id: data.charge_id,
        amount_refunded_cents: data.amount_refunded_cents,
        fully_refunded: data.fully_refunded,
        refunded_at: iso(metadata.now),
      },
    },
  ];
}

/**
 * Money received outside Stripe answers the field: a sent onboarding's payment field not
 * paid yet (409 payment_already_received once paid either way).
 */
export function markPaid(command: MarkPaid, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireForApi(state, data.team_id);
  const { field } = paymentFieldOf(onboarding, data.field_id);
  if (onboarding.fulfilled_fields.includes(field.field.id)) throw fail('payment_already_received');
  const config = field.field.config as { amount_cents?: unknown; currency?: unknown };
  return [
    {
      type: 'payment_marked_paid',
      data: {
        ...fieldBase(onboarding, field),
        payment_id: data.payment_id,
        amount_cents: typeof config.amount_cents === 'number' ? config.amount_cents : 0,
        currency: typeof config.currency === 'string' ? config.currency.toLowerCase() : '',
        note: data.note,
        member_id: data.member_id,
        marked_at: iso(metadata.now),
      },
    },
  ];
}

/** A draft takes its template's latest version; nothing when it already has it. */
export function refreshTemplate(command: RefreshTemplate, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireForApi(state, data.team_id);
  if (onboarding.client_erased_at !== null) throw fail('target_unavailable');
  if (onboarding.status !== 'draft') throw fail('invalid_state', { status: onboarding.status });
  if (data.template === null) throw fail('template_missing');
  if (isDeepStrictEqual(data.template.snapshot, onboarding.snapshot)) return [];
  return [
    {
      type: 'onboarding_template_refreshed',
      data: {
        ...base(onboarding),
        template_snapshot: data.template.snapshot,
        member_id: data.member_id,
        refreshed_at: iso(metadata.now),
      },
    },
  ];
}
