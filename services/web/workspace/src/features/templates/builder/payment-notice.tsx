/**
 * The notice beside "Template saved" when a required payment of the template cannot be
 * collected yet: the team's plan takes no payments, or no Stripe account is connected
 * (GET /workspace/v1/team `team.payments`). It does not block the save: the send refuses
 * such a form (payment_plan_required, payment_not_connected) until the team fixes it.
 */
import { getTeam } from '../../access/api.ts';
import { t } from '../../../i18n.ts';
import { Link } from '../../../ui/index.ts';
import type { BuilderTemplate } from '../template-model.ts';

/** What the team's answer says of payments (part of GET /workspace/v1/team). */
export interface TeamPayments {
  plan: string;
  payments?: { plan_allows: boolean; connected: boolean } | null;
}

export type PaymentNotice = { kind: 'plan'; plan: string } | { kind: 'connect' } | null;

/** The plan's name as people say it: pro_trial -> "Pro trial". */
export const planName = (plan: string) => {
  const words = plan.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const hasRequiredPayment = (template: BuilderTemplate) =>
  template.steps.some((step) => step.fields.some((field) => field.type === 'payment' && field.is_required));

/** Pure: the notice for `template` on `team`; null when its payments can be collected (or it has none). */
export function paymentNoticeOf(template: BuilderTemplate, team: TeamPayments): PaymentNotice {
  const payments = team.payments;
  if (!hasRequiredPayment(template) || !payments) return null;
  if (!payments.plan_allows) return { kind: 'plan', plan: planName(team.plan) };
  return payments.connected ? null : { kind: 'connect' };
}

/** The notice of a saved template, asked of the team right after the save; null when none or unknown. */
export async function noticeAfterSave(template: BuilderTemplate): Promise<PaymentNotice> {
  if (!hasRequiredPayment(template)) return null;
  const answer = await getTeam();
  return answer.ok ? paymentNoticeOf(template, answer.data.team as TeamPayments) : null;
}

export function PaymentNoticeText({
  notice,
  navigate,
}: {
  notice: PaymentNotice;
  navigate: (path: string) => void;
}) {
  return (
    <div class="builder-payment-notice" aria-live="polite">
      {notice ? (
        <p class="warning">
          {notice.kind === 'plan'
            ? t('builder.paymentPlanWarning', { plan: notice.plan })
            : t('builder.paymentConnectWarning')}{' '}
          <Link href="/workspace/settings" navigate={navigate}>
            {t('builder.openSettings')}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
