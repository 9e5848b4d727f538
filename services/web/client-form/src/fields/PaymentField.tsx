/**
 * A payment the team collects through Stripe Checkout on its own connected account: the
 * page shows the amount in the client's locale, what it is for and who collects it, and a
 * Pay (or Subscribe) button that saves every typed answer, then sends the client to Checkout
 * (POST .../checkout). Back from Checkout (../checkout-return.ts) it says "Processing your
 * payment…" and reads the onboarding every 2 seconds until the webhook's payment shows in
 * paid_field_ids ("Paid"), for a minute, then calmly every 10 seconds; a cancelled or failed
 * payment says so and offers the button again.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type PortalOnboarding } from '../api.ts';
import { rememberCheckout } from '../checkout-return.ts';
import type { FieldProps } from './field-props.ts';
import { ErrorText, RequiredMarker } from './FieldFrame.tsx';
import { configText, helpText, pageLocale } from './field-text.ts';

export function paymentReceived(onboarding: PortalOnboarding, fieldId: string): boolean {
  return onboarding.paid_field_ids.includes(fieldId);
}

const INTERVALS = ['day', 'week', 'month', 'year'] as const;
type Interval = (typeof INTERVALS)[number];

/** Polls while a payment is processing: every 2 s for a minute, then every 10 s. */
export const QUICK_POLL_MS = 2_000;
export const QUICK_POLLS = 30;
export const CALM_POLL_MS = 10_000;

type State = 'paid' | 'processing' | 'slow' | 'cancelled' | 'failed' | 'due';

/** Whether the client is back from a successful Checkout of this field that is not paid yet. */
function awaitingPayment({ field, onboarding, checkoutReturn }: FieldProps): boolean {
  return (
    !paymentReceived(onboarding, field.id) &&
    checkoutReturn?.fieldId === field.id &&
    checkoutReturn.outcome === 'success'
  );
}

/** What the field says now: paid first, then what the return from Checkout says, then a failure. */
function paymentState(props: FieldProps, polls: number): State {
  const { field, onboarding, checkoutReturn } = props;
  if (paymentReceived(onboarding, field.id)) return 'paid';
  if (awaitingPayment(props)) return polls < QUICK_POLLS ? 'processing' : 'slow';
  if (checkoutReturn?.fieldId === field.id && checkoutReturn.outcome === 'cancelled') return 'cancelled';
  if ((onboarding.failed_payment_field_ids ?? []).includes(field.id)) return 'failed';
  return 'due';
}

/** Reads the onboarding again while `active`; answers how many reads were made. */
function usePolling(active: boolean, refresh: () => Promise<void>): number {
  const [polls, setPolls] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(
      () => {
        void refresh().finally(() => setPolls((count) => count + 1));
      },
      polls < QUICK_POLLS ? QUICK_POLL_MS : CALM_POLL_MS,
    );
    return () => clearTimeout(timer);
  }, [active, polls]);
  return polls;
}

/** The button's words: Pay EUR 150.00, or Subscribe EUR 15.00 per month. */
function payLabel(props: FieldProps, amount: string | null, interval: Interval | null): string {
  const { t } = props;
  if (amount === null) return t('payment.payNow');
  return interval ? t(`payment.subscribe.${interval}`, { amount }) : t('payment.pay', { amount });
}

/** Why the payment page did not open, in words. */
function openProblem(error: unknown): string {
  if (!(error instanceof ApiError)) return 'payment.openFailed';
  if (error.code === 'payment_not_connected') return 'payment.notOnline';
  return 'payment.openFailed';
}

function usePay(props: FieldProps) {
  const { field, portal, refresh } = props;
  const [opening, setOpening] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  async function pay() {
    if (opening) return;
    setOpening(true);
    setProblem(null);
    try {
      // Leaving for Checkout with an answer still being saved would lose it (or stop the client
      // with the browser's "leave site?"): every typed answer is saved first.
      if (props.saveAnswers && !(await props.saveAnswers())) {
        setOpening(false);
        setProblem('save.unsaved');
        return;
      }
      const { url } = await portal.checkout(field.id, pageLocale());
      // The builder's preview (no link) marks the payment paid in its memory: nowhere to go.
      if (!portal.linkToken) {
        setOpening(false);
        await refresh();
        return;
      }
      rememberCheckout(portal.linkToken, field.id);
      window.location.assign(url);
    } catch (error) {
      setOpening(false);
      if (error instanceof ApiError && error.code === 'payment_already_received') {
        await refresh();
        return;
      }
      // A link that no longer works, a PIN needed: the page's reload says why.
      if (error instanceof ApiError && [401, 404, 429].includes(error.status)) await refresh();
      setProblem(openProblem(error));
    }
  }
  return { opening, problem, pay };
}

const STATUS_KEYS: Partial<Record<State, string>> = {
  paid: 'payment.paidStatus',
  processing: 'payment.processing',
  slow: 'payment.stillProcessing',
  cancelled: 'payment.cancelled',
  failed: 'payment.failed',
};

export function PaymentField(props: FieldProps) {
  const { field, problem, ids, t, formats, team } = props;
  const amountCents = field.config?.amount_cents;
  const currency = typeof field.config?.currency === 'string' ? field.config.currency : 'usd';
  const interval = INTERVALS.find((known) => known === field.config?.interval) ?? null;
  const amount = typeof amountCents === 'number' ? formats.money(amountCents, currency.toUpperCase()) : null;
  const description = configText(field, 'description');
  const help = helpText(field);
  const titleId = `${ids.input}-title`;
  const statusId = `${ids.input}-status`;
  const polls = usePolling(awaitingPayment(props), props.refresh);
  const state = paymentState(props, polls);
  const { opening, problem: openText, pay } = usePay(props);
  const statusKey = STATUS_KEYS[state];
  const canPay = state === 'due' || state === 'cancelled' || state === 'failed';
  return (
    <section class={`field field--${field.type} payment`} aria-labelledby={titleId}>
      <div class="field__label-row">
        <h2 id={titleId} class="field__label payment__title">
          {field.label}
        </h2>
        {field.is_required ? <RequiredMarker t={t} /> : null}
      </div>
      {amount !== null ? (
        <p class="payment__amount">
          {interval ? t(`payment.amountEvery.${interval}`, { amount }) : t('payment.amount', { amount })}
        </p>
      ) : null}
      {description ? <p class="payment__description">{description}</p> : null}
      {help ? (
        <p id={ids.help} class="field__help">
          {help}
        </p>
      ) : null}
      {state === 'paid' ? null : <p class="payment__note">{t('payment.collects', { team })}</p>}
      <p id={statusId} class={`payment__status payment__status--${state}`} role="status" aria-live="polite">
        {statusKey ? t(statusKey) : null}
        {openText ? t(openText, { team }) : null}
      </p>
      {canPay ? (
        <button
          id={ids.input}
          type="button"
          class="button primary payment__pay"
          aria-describedby={problem ? ids.error : undefined}
          aria-busy={opening ? 'true' : undefined}
          aria-disabled={opening ? 'true' : undefined}
          onClick={() => void pay()}
        >
          {opening ? t('payment.opening') : payLabel(props, amount, interval)}
        </button>
      ) : null}
      <ErrorText id={ids.error} problem={state === 'paid' ? null : problem} t={t} formats={formats} />
    </section>
  );
}
