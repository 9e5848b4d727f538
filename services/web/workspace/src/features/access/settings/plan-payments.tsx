import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import { problemMessage, type Problem } from '../../../problems.ts';
import { ConfirmDialog, ErrorMessage, Status, useAction } from '../../../ui/index.ts';
import type { TeamSettings } from '../api.ts';
import { connectStripe, disconnectStripe, refreshStripe, type Payments } from './payments-api.ts';
import { monthlyText, paymentsActions, planKey, stateKey } from './payments.ts';

/**
 * The team's plan (what it includes, this month's use) and its online payments: the Stripe
 * account's state in words; owners and admins connect it (Stripe's onboarding through an
 * account link), continue its setup, or disconnect it (after a question). Stripe sends the
 * member back to /workspace/settings/payments/return (the state is read again) or, when
 * the link expired, /workspace/settings/payments/refresh (a new link, straight there).
 */

/** The Stripe failures in words; other problems as the workspace says them. */
function paymentsProblem(problem: Problem): string {
  if (problem.code === 'payment_processor_unavailable') return t('settings.payments.processorUnavailable');
  if (problem.code === 'payments_unavailable') return t('settings.payments.offline');
  return problemMessage(problem, t);
}

export function PlanCard({ team }: { team: TeamSettings }) {
  const includes = team.plan_includes;
  const yesNo = (included: boolean) => t(included ? 'settings.plan.included' : 'settings.plan.notIncluded');
  return (
    <section class="card section" aria-labelledby="plan-title">
      <h2 id="plan-title">{t('settings.plan')}</h2>
      <p>
        <strong>{t(planKey(team.plan))}</strong>
      </p>
      <dl class="facts plan-includes">
        <dt>{t('settings.plan.apiAccess')}</dt>
        <dd>{yesNo(includes.api_access)}</dd>
        <dt>{t('settings.plan.automations')}</dt>
        <dd>{yesNo(includes.automations)}</dd>
        <dt>{t('settings.plan.payments')}</dt>
        <dd>{yesNo(includes.payments)}</dd>
        <dt>{t('settings.plan.onboardings')}</dt>
        <dd>{monthlyText(includes.monthly_onboardings, t)}</dd>
        <dt>{t('settings.plan.thisMonth')}</dt>
        <dd>
          {t('settings.plan.used', {
            sent: team.usage.onboardings_sent,
            limit: monthlyText(team.usage.monthly_limit, t),
          })}
        </dd>
      </dl>
    </section>
  );
}

/** Goes to Stripe's onboarding of the team's account (a new account link each time). */
async function goToStripe(fail: (problem: Problem) => void) {
  const answer = await connectStripe();
  if (answer.ok) window.location.assign(answer.data.url);
  else fail(answer.problem);
}

export function PaymentsSection({
  team,
  canEdit,
  stripeBack,
  onPayments,
  onBack,
}: {
  team: TeamSettings;
  canEdit: boolean;
  stripeBack?: 'return' | 'refresh';
  onPayments: (payments: Payments) => void;
  /** Once back from Stripe: the address becomes the settings page's again (a reload reads nothing twice). */
  onBack: () => void;
}) {
  const payments = team.payments;
  const { busy, error, setError, run } = useAction();
  const fail = (problem: Problem) => setError(paymentsProblem(problem));
  const [status, setStatus] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const cameBack = useRef(false);

  useEffect(() => {
    if (!stripeBack || cameBack.current || !canEdit) return;
    cameBack.current = true;
    if (stripeBack === 'refresh') {
      setLeaving(true);
      setStatus(t('settings.payments.opening'));
      void run(() => goToStripe((problem) => (setLeaving(false), setStatus(null), fail(problem))));
      return;
    }
    void run(async () => {
      const answer = await refreshStripe();
      if (!answer.ok) return fail(answer.problem);
      onPayments(answer.data.payments);
      setStatus(t('settings.payments.back', { state: t(stateKey(answer.data.payments)) }));
      onBack();
    });
  }, [stripeBack, canEdit]);

  const connect = () => {
    setStatus(t('settings.payments.opening'));
    setLeaving(true);
    void run(() => goToStripe((problem) => (setLeaving(false), setStatus(null), fail(problem))));
  };

  const actions = canEdit ? paymentsActions(payments) : [];
  return (
    <section class="card section" aria-labelledby="payments-title">
      <h2 id="payments-title">{t('settings.payments.title')}</h2>
      {!payments.online ? <p>{t('settings.payments.offline')}</p> : null}
      {payments.online && !payments.plan_allows ? (
        <p>{t('settings.payments.planNot', { plan: t(planKey(team.plan)) })}</p>
      ) : null}
      {payments.online ? (
        <p>
          {t('settings.payments.stateLabel')} <strong>{t(stateKey(payments))}</strong>
        </p>
      ) : null}
      {payments.online ? (
        <p class="hint">{t(`settings.payments.explain.${payments.account_state}`)}</p>
      ) : null}
      <Status text={status} />
      <ErrorMessage text={error} />
      {actions.length > 0 ? (
        <div class="actions">
          {actions.includes('connect') || actions.includes('continue') ? (
            <button
              type="button"
              class="button-primary"
              aria-disabled={busy || leaving || undefined}
              onClick={connect}
            >
              {t(actions.includes('connect') ? 'settings.payments.connect' : 'settings.payments.continue')}
            </button>
          ) : null}
          {actions.includes('disconnect') ? (
            <button
              type="button"
              class="button-secondary"
              aria-disabled={busy || leaving || undefined}
              onClick={() => setConfirming(true)}
            >
              {t('settings.payments.disconnect')}
            </button>
          ) : null}
        </div>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={t('settings.payments.disconnectTitle')}
          intro={t('settings.payments.disconnectIntro')}
          action={t('settings.payments.disconnect')}
          danger
          act={disconnectStripe}
          onDone={(data) => {
            setConfirming(false);
            onPayments(data.payments);
            setStatus(t('settings.payments.disconnected'));
          }}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}

/** The plan card and the payments section of the settings page. */
export function PlanAndPayments({
  team,
  canEdit,
  stripeBack,
  navigate,
  onTeam,
}: {
  team: TeamSettings;
  canEdit: boolean;
  stripeBack?: 'return' | 'refresh';
  navigate: (path: string, options?: { replace?: boolean }) => void;
  onTeam: (change: (team: TeamSettings | null) => TeamSettings | null) => void;
}) {
  return (
    <>
      <PlanCard team={team} />
      <PaymentsSection
        team={team}
        canEdit={canEdit}
        stripeBack={stripeBack}
        onPayments={(payments) => onTeam((current) => current && { ...current, payments })}
        onBack={() => navigate('/workspace/settings', { replace: true })}
      />
    </>
  );
}
