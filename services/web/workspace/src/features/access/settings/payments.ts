/**
 * Pure: what the settings page says of the team's plan and online payments (GET
 * /workspace/v1/team `plan_includes` and `payments`), as message keys and values.
 */
import type { Translate } from '../../../i18n.ts';
import type { Payments } from './payments-api.ts';

/** The account's state in words (settings.payments.state.*). */
export const stateKey = (payments: Pick<Payments, 'account_state'>) =>
  `settings.payments.state.${payments.account_state}`;

export type PaymentsAction = 'connect' | 'continue' | 'disconnect';

/**
 * What an owner or admin may do: connect when there is no account, continue Stripe's
 * setup while details are missing, disconnect while there is an account. Nothing when the
 * service takes no payments online.
 */
export function paymentsActions(payments: Payments): PaymentsAction[] {
  if (!payments.online) return [];
  switch (payments.account_state) {
    case 'not_connected':
      return ['connect'];
    case 'details_missing':
      return ['continue', 'disconnect'];
    case 'ready':
      return ['disconnect'];
  }
}

/** The plan's name as people say it (settings.plan.name.*). */
export const planKey = (plan: string) => `settings.plan.name.${plan}`;

/** The monthly onboardings a plan includes: a number, or "unlimited". */
export function monthlyText(monthly: number | 'unlimited', t: Translate): string {
  return monthly === 'unlimited'
    ? t('settings.plan.unlimited')
    : t('settings.plan.monthly', { count: monthly });
}
