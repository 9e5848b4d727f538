import { recordStripeAccountUpdate } from '../access/index.ts';
import { stripeCommandMetadata, type Outcome, type StripeEventScope } from './stripe-event-scope.ts';
import { accountSchema } from './stripe-objects.ts';

/*
 * account.updated -> the team with this connected account gets its new state (ready, or
 * details missing) and payments_connected follows (services/access: recordStripeAccountUpdate),
 * in the transaction that claims the event.
 */

export async function accountUpdated(scope: StripeEventScope): Promise<Outcome> {
  const parsed = accountSchema.safeParse(scope.event.object);
  if (!parsed.success) return 'malformed';
  const account = parsed.data;
  // A connected account's event names it in `account`; the object is that account.
  if (scope.event.account !== null && scope.event.account !== account.id) return 'foreign_account';
  const { teamId, position } = await recordStripeAccountUpdate(
    { ...scope.deps, tx: scope.tx },
    {
      accountId: account.id,
      chargesEnabled: account.charges_enabled,
      detailsSubmitted: account.details_submitted,
    },
    stripeCommandMetadata(scope),
  );
  if (teamId === null) return 'unknown_account';
  return position === undefined ? 'unchanged' : 'recorded';
}
