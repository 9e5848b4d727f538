import { Fragment } from 'preact';
import { useCallback, useEffect, useId, useState } from 'preact/hooks';
import { call } from '../../../../shared/api/client.ts';
import { api } from '../../api.ts';
import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { Dialog, DialogActions, ErrorMessage, NoteField, Status } from '../../ui/index.ts';
import { listPayments, markPaid } from './api.ts';
import {
  awaitsPayment,
  formatAmount,
  stripeIds,
  type OnboardingPayment,
  type PaymentsAnswer,
} from './payments-model.ts';
import './onboarding-review.css';

const NOTE_MAX = 500;

/** Whether the signed-in member may mark payments paid (owners and admins; the server checks it too). */
function useMayMarkPaid(): boolean {
  const [may, setMay] = useState(false);
  useEffect(() => {
    void call(api.GET('/workspace/v1/me')).then((answer) => {
      if (answer.ok) setMay(answer.data.role === 'owner' || answer.data.role === 'admin');
    });
  }, []);
  return may;
}

/**
 * The onboarding's payments: each payment field with its amount in the team's locale, its
 * status in words, when, the Stripe ids, refunds and later periods, a link to it in Stripe's
 * dashboard, and Mark as paid (owners and admins) for money received outside Stripe. A draft
 * whose template changed since offers to take the latest template.
 */
export function OnboardingPayments({
  onboardingId,
  version,
  sent,
  onChanged,
  onRefresh,
}: {
  onboardingId: string;
  version: number;
  /** The onboarding was sent at least once: only then can a payment be received. */
  sent: boolean;
  onChanged: () => void;
  /** Takes the template's latest version (the page's action: it reads the onboarding again). */
  onRefresh: () => Promise<unknown>;
}) {
  const [answer, setAnswer] = useState<PaymentsAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [marking, setMarking] = useState<OnboardingPayment | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const mayMark = useMayMarkPaid();

  const load = useCallback(async () => {
    const outcome = await listPayments(onboardingId);
    if (outcome.ok) setAnswer(outcome.data);
    else setError(problemMessage(outcome.problem, t));
  }, [onboardingId]);
  useEffect(() => {
    void load();
  }, [load, version]);

  if (answer === null) return error ? <ErrorMessage text={error} /> : null;
  const { payments, locale } = answer;

  async function mark(payment: OnboardingPayment, note: string): Promise<string | null> {
    const outcome = await markPaid(onboardingId, payment.field_id, note);
    if (!outcome.ok) return problemMessage(outcome.problem, t);
    setError(null);
    setStatus(t('payments.markedDone', { label: payment.label }));
    setMarking(null);
    onChanged();
    return null;
  }

  return (
    <>
      {answer.template_outdated ? (
        <section class="section" aria-labelledby="template-update-title">
          <h2 id="template-update-title" class="section-title">
            {t('payments.templateTitle')}
          </h2>
          <p>{t('payments.templateOutdated')}</p>
          <button
            type="button"
            class="button-primary"
            disabled={refreshing}
            onClick={() => {
              setRefreshing(true);
              void onRefresh().finally(() => setRefreshing(false));
            }}
          >
            {t('payments.refresh')}
          </button>
        </section>
      ) : null}
      {payments.length > 0 ? (
        <section class="section" aria-labelledby="payments-title">
          <h2 id="payments-title" class="section-title">
            {t('payments.title')}
          </h2>
          <Status text={status} />
          <ErrorMessage text={error} />
          <ul class="rows payments">
            {payments.map((payment) => (
              <PaymentRow
                key={payment.field_id}
                payment={payment}
                locale={locale}
                onMark={mayMark && sent && awaitsPayment(payment) ? () => setMarking(payment) : null}
              />
            ))}
          </ul>
          {marking ? (
            <MarkPaidDialog
              payment={marking}
              amount={amountText(marking, locale)}
              onClose={() => setMarking(null)}
              onSend={(note) => mark(marking, note)}
            />
          ) : null}
        </section>
      ) : null}
    </>
  );
}

function amountText(payment: OnboardingPayment, locale: string): string {
  if (payment.amount_cents === null) return t('payments.noAmount');
  const amount = formatAmount(payment.amount_cents, payment.currency, locale);
  return payment.interval ? t('payments.every', { amount, interval: payment.interval }) : amount;
}

/** One payment field: amount, status, when, who and why (Mark as paid), Stripe ids, refunds, periods, actions. */
function PaymentRow({
  payment,
  locale,
  onMark,
}: {
  payment: OnboardingPayment;
  locale: string;
  onMark: (() => void) | null;
}) {
  const money = (amount: number) => formatAmount(amount, payment.currency, locale);
  const { renewals } = payment;
  return (
    <li class="row payment" data-field-id={payment.field_id}>
      <h3 class="row-title">{payment.label}</h3>
      <dl class="facts">
        <dt>{t('payments.amount')}</dt>
        <dd>{amountText(payment, locale)}</dd>
        <dt>{t('payments.statusLabel')}</dt>
        <dd>
          <span class={`review-status payment-status-${payment.status}`}>
            {t(`payments.status.${payment.status}`)}
          </span>
        </dd>
        {payment.paid_at ? (
          <>
            <dt>{t(payment.marked_by ? 'payments.markedAt' : 'payments.paidAt')}</dt>
            <dd>{formatDateTime(payment.paid_at)}</dd>
          </>
        ) : null}
        {payment.marked_by ? (
          <>
            <dt>{t('payments.markedBy')}</dt>
            <dd>{payment.marked_by.name}</dd>
            <dt>{t('payments.note')}</dt>
            <dd class="review-value">{payment.note}</dd>
          </>
        ) : null}
        {stripeIds(payment).map(({ label, id }) => (
          <Fragment key={label}>
            <dt>{t(label)}</dt>
            <dd>
              <code>{id}</code>
            </dd>
          </Fragment>
        ))}
        {payment.refunded_cents > 0 && payment.refunded_at ? (
          <>
            <dt>{t('payments.refunded')}</dt>
            <dd>
              {t('payments.refundedOn', {
                amount: money(payment.refunded_cents),
                date: formatDateTime(payment.refunded_at),
              })}
            </dd>
          </>
        ) : null}
        {renewals.count > 0 && renewals.last_paid_at ? (
          <>
            <dt>{t('payments.renewals')}</dt>
            <dd>
              {t('payments.renewalsText', {
                count: renewals.count,
                date: formatDateTime(renewals.last_paid_at),
              })}
            </dd>
          </>
        ) : null}
        {payment.subscription_ended_at ? (
          <>
            <dt>{t('payments.ended')}</dt>
            <dd>{formatDateTime(payment.subscription_ended_at)}</dd>
          </>
        ) : null}
        {payment.failed_attempts > 0 && payment.last_failed_at ? (
          <>
            <dt>{t('payments.failedAttempts')}</dt>
            <dd>
              {t('payments.failedText', {
                count: payment.failed_attempts,
                date: formatDateTime(payment.last_failed_at),
              })}
            </dd>
          </>
        ) : null}
      </dl>
      {payment.dashboard_url || onMark ? (
        <div class="actions">
          {payment.dashboard_url ? (
            <a href={payment.dashboard_url} target="_blank" rel="noopener">
              {t('payments.viewInStripe')}
              <span class="visually-hidden"> {t('payments.newTab', { label: payment.label })}</span>
            </a>
          ) : null}
          {onMark ? (
            <button type="button" class="button-secondary" onClick={onMark}>
              {t('payments.markPaid')}
              <span class="visually-hidden"> {payment.label}</span>
            </button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** Mark as paid: the note (required, at most 500 characters) says how the money came. */
function MarkPaidDialog({
  payment,
  amount,
  onClose,
  onSend,
}: {
  payment: OnboardingPayment;
  amount: string;
  onClose: () => void;
  onSend: (note: string) => Promise<string | null>;
}) {
  const [note, setNote] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  return (
    <Dialog title={t('payments.markTitle', { label: payment.label })} onClose={onClose}>
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          if (busy) return;
          const text = note.trim();
          if (text.length === 0 || text.length > NOTE_MAX) {
            setInvalid(t('payments.noteRequired'));
            document.getElementById(id)?.focus();
            return;
          }
          setInvalid(null);
          setBusy(true);
          setProblem(await onSend(text));
          setBusy(false);
        }}
      >
        <p>{t('payments.markQuestion', { amount })}</p>
        <ErrorMessage text={problem} />
        <NoteField
          id={id}
          label={t('payments.noteLabel')}
          hint={t('payments.noteHint')}
          invalid={invalid}
          rows={3}
          maxLength={NOTE_MAX}
          value={note}
          onInput={setNote}
        />
        <DialogActions action={t('payments.markPaid')} disabled={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
