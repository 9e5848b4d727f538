import type { OnboardingEvent, TemplateSnapshot } from './onboarding-events.ts';
import { fieldsOf } from './template-snapshot.ts';
import { paymentCurrency } from '../templates/contract/payment-amount.ts';

/**
 * The payments of one onboarding as the team sees them (pure): one entry per payment field
 * of its current template (the snapshot after any refresh), folded from the stream: what
 * the processor confirmed (payment.succeeded, later periods, the subscription's end,
 * refunds, failed Checkouts) and what the team recorded itself (Mark as paid).
 */

export const PAYMENT_VIEW_STATUSES = [
  'unpaid',
  'paid',
  'marked_paid',
  'failed',
  'refunded',
  'partially_refunded',
  'subscription_ended',
] as const;
export type PaymentViewStatus = (typeof PAYMENT_VIEW_STATUSES)[number];

export interface PaymentView {
  field_id: string;
  step_id: string;
  label: string;
  required: boolean;
  /** What was paid (the processor's amount, or the field's at Mark as paid); else what the field asks. */
  amount_cents: number | null;
  /** Lower-case ISO 4217 code, as Stripe writes it (the default currency when the field names none). */
  currency: string;
  /** The subscription's interval (`config.interval`); null for a one-time payment. */
  interval: string | null;
  status: PaymentViewStatus;
  paid_at: string | null;
  payment_id: string | null;
  payment_intent_id: string | null;
  subscription_id: string | null;
  refunded_cents: number;
  refunded_at: string | null;
  renewals: { count: number; last_paid_at: string | null; last_amount_cents: number | null };
  subscription_ended_at: string | null;
  failed_attempts: number;
  last_failed_at: string | null;
  /** Mark as paid: the member who recorded it and the note. */
  marked_by: { member_id: string } | null;
  note: string | null;
  /** The payment in Stripe's dashboard; null without a processor payment (Mark as paid, unpaid). */
  dashboard_url: string | null;
}

export interface PaymentsViewOptions {
  /** Test-mode keys (sk_test_, rk_test_) link to the dashboard's test data. */
  testMode: boolean;
}

/** Whether a Stripe secret key is a test-mode key (its dashboard links go under /test/). */
export const isTestModeKey = (key: string | undefined | null): boolean =>
  typeof key === 'string' && (key.startsWith('sk_test_') || key.startsWith('rk_test_'));

/** The dashboard page of a processor payment: the subscription, else the payment intent. */
export function dashboardUrl(
  payment: { payment_intent_id: string | null; subscription_id: string | null },
  { testMode }: PaymentsViewOptions,
): string | null {
  const base = `https://dashboard.stripe.com/${testMode ? 'test/' : ''}`;
  if (payment.subscription_id) return `${base}subscriptions/${encodeURIComponent(payment.subscription_id)}`;
  if (payment.payment_intent_id) return `${base}payments/${encodeURIComponent(payment.payment_intent_id)}`;
  return null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function unpaidView(step_id: string, field: ReturnType<typeof fieldsOf>[number]['field']): PaymentView {
  const config = field.config;
  return {
    field_id: field.id,
    step_id,
    label: field.label,
    required: field.is_required,
    amount_cents: typeof config['amount_cents'] === 'number' ? config['amount_cents'] : null,
    currency: paymentCurrency(config),
    interval: text(config['interval']),
    status: 'unpaid',
    paid_at: null,
    payment_id: null,
    payment_intent_id: null,
    subscription_id: null,
    refunded_cents: 0,
    refunded_at: null,
    renewals: { count: 0, last_paid_at: null, last_amount_cents: null },
    subscription_ended_at: null,
    failed_attempts: 0,
    last_failed_at: null,
    marked_by: null,
    note: null,
    dashboard_url: null,
  };
}

/** One event's change to the payment of its field. */
function apply(view: PaymentView, event: OnboardingEvent): PaymentView {
  switch (event.type) {
    case 'payment.succeeded':
      // The first confirmed payment answers the field; a later one for it changes nothing shown.
      if (view.payment_intent_id !== null || view.status === 'marked_paid') return view;
      return {
        ...view,
        status: 'paid',
        amount_cents: event.data.amount_cents,
        interval: event.data.interval ?? view.interval,
        paid_at: event.data.paid_at,
        payment_id: event.data.payment_id,
        payment_intent_id: event.data.payment_intent_id,
        subscription_id: event.data.subscription_id,
      };
    case 'payment_marked_paid':
      return {
        ...view,
        status: 'marked_paid',
        amount_cents: event.data.amount_cents,
        currency: text(event.data.currency) ?? view.currency,
        paid_at: event.data.marked_at,
        payment_id: event.data.payment_id,
        marked_by: { member_id: event.data.member_id },
        note: event.data.note,
      };
    case 'payment_failed':
      return {
        ...view,
        status: view.status === 'unpaid' ? 'failed' : view.status,
        failed_attempts: view.failed_attempts + 1,
        last_failed_at: event.data.failed_at,
      };
    case 'payment_renewed':
      return {
        ...view,
        renewals: {
          count: view.renewals.count + 1,
          last_paid_at: event.data.paid_at,
          last_amount_cents: event.data.amount_cents,
        },
      };
    case 'payment_subscription_ended':
      return {
        ...view,
        status: view.status === 'paid' ? 'subscription_ended' : view.status,
        subscription_ended_at: event.data.ended_at,
      };
    case 'payment_refunded': {
      // The charge's whole refunded amount so far: the largest one told is the latest.
      const refunded = Math.max(view.refunded_cents, event.data.amount_refunded_cents);
      const paidStatus = ['paid', 'subscription_ended', 'partially_refunded', 'refunded'];
      return {
        ...view,
        refunded_cents: refunded,
        refunded_at: event.data.refunded_at,
        status: paidStatus.includes(view.status)
          ? event.data.fully_refunded || (view.amount_cents !== null && refunded >= view.amount_cents)
            ? 'refunded'
            : 'partially_refunded'
          : view.status,
      };
    }
    default:
      return view;
  }
}

/** The field an event is about, for the payment events; undefined for the others. */
function paymentFieldOf(event: OnboardingEvent): string | undefined {
  switch (event.type) {
    case 'payment.succeeded':
    case 'payment_marked_paid':
    case 'payment_failed':
    case 'payment_renewed':
    case 'payment_subscription_ended':
    case 'payment_refunded':
      return event.data.field_id;
    default:
      return undefined;
  }
}

/** The template the onboarding follows now: its creation's, or the latest refresh's. */
export function currentSnapshot(events: readonly OnboardingEvent[]): TemplateSnapshot | null {
  let snapshot: TemplateSnapshot | null = null;
  for (const event of events) {
    if (event.type === 'onboarding_created') snapshot = event.data.template_snapshot;
    else if (event.type === 'onboarding_template_refreshed') snapshot = event.data.template_snapshot;
  }
  return snapshot;
}

/** Every payment field of `snapshot`, in form order, with what the stream says of its payment. */
export function paymentsOf(
  events: readonly OnboardingEvent[],
  snapshot: TemplateSnapshot,
  options: PaymentsViewOptions = { testMode: false },
): PaymentView[] {
  const views = new Map<string, PaymentView>();
  for (const { step_id, field } of fieldsOf(snapshot)) {
    if (field.type === 'payment') views.set(field.id, unpaidView(step_id, field));
  }
  for (const event of events) {
    const fieldId = paymentFieldOf(event);
    const view = fieldId === undefined ? undefined : views.get(fieldId);
    if (fieldId !== undefined && view) views.set(fieldId, apply(view, event));
  }
  return [...views.values()].map((view) => ({
    ...view,
    dashboard_url: view.status === 'marked_paid' ? null : dashboardUrl(view, options),
  }));
}
