import { describe, expect, it } from 'vitest';
import { onboardingDecider, type OnboardingCommand } from './index.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import { MEMBER, OTHER_TEAM, TEAM, at, created, field, sent, snapshot, started } from './test-fixtures.ts';

const given = DeciderSpecification.for(onboardingDecider);
const payField = field('pay', 'payment', { config: { amount_cents: 15000, currency: 'EUR' } });
const withPayment = created(snapshot({ fields2: [payField] }));
const live = [withPayment, sent(1, 'draft'), started(1, 'sent')];
const command = <C extends OnboardingCommand>(type: C['type'], data: C['data']) =>
  ({ type, data, metadata: { now: at(9) } }) as C;

const markPaid = (team_id = TEAM) =>
  command('MarkPaid', {
    team_id,
    field_id: 'pay',
    payment_id: 'mp1',
    member_id: MEMBER,
    note: 'Bank transfer',
  });

describe('payments after Checkout', () => {
  it('a failed Checkout counts one attempt per session and nothing once paid', () => {
    const fail = (session: string) =>
      command('RecordPaymentFailure', {
        field_id: 'pay',
        checkout_session_id: session,
        payment_intent_id: null,
      });
    const once = given(...live).when(fail('cs_1'));
    once.thenTypes(['payment_failed']);
    const [failed] = once.events();
    const state = given(...live, failed!).state;
    expect(state.status !== 'absent' && state.failed_payment_attempts['pay']).toBe(1);
    given(...live, failed!)
      .when(fail('cs_1'))
      .thenNothingHappened();
    given(...live, failed!)
      .when(fail('cs_2'))
      .thenTypes(['payment_failed']);
    const [paid] = given(...live)
      .when(markPaid())
      .events();
    given(...live, paid!)
      .when(fail('cs_3'))
      .thenNothingHappened();
  });

  it('renewals, a subscription end and refunds are recorded once each', () => {
    const renewal = command('RecordSubscriptionRenewal', {
      field_id: 'pay',
      subscription_id: 'sub_1',
      invoice_id: 'in_2',
      amount_cents: 15000,
    });
    const [renewed] = given(...live)
      .when(renewal)
      .events();
    expect(renewed?.type).toBe('payment_renewed');
    given(...live, renewed!)
      .when(renewal)
      .thenNothingHappened();

    const end = command('RecordSubscriptionEnd', { field_id: 'pay', subscription_id: 'sub_1' });
    const [ended] = given(...live)
      .when(end)
      .events();
    expect(ended?.type).toBe('payment_subscription_ended');
    given(...live, ended!)
      .when(end)
      .thenNothingHappened();

    const refund = (amount: number) =>
      command('RecordRefund', {
        field_id: 'pay',
        payment_intent_id: 'pi_1',
        charge_id: 'ch_1',
        amount_refunded_cents: amount,
        fully_refunded: amount === 15000,
      });
    const [part] = given(...live)
      .when(refund(5000))
      .events();
    given(...live, part!)
      .when(refund(5000))
      .thenNothingHappened();
    given(...live, part!)
      .when(refund(15000))
      .thenTypes(['payment_refunded']);
  });

  it('facts about another field or a draft are refused', () => {
    const end = (fieldId: string) =>
      command('RecordSubscriptionEnd', { field_id: fieldId, subscription_id: 's' });
    given(...live)
      .when(end('nope'))
      .thenThrows('field_not_found');
    given(withPayment).when(end('pay')).thenThrows('invalid_state');
  });
});

describe('Mark as paid', () => {
  it('answers the field once, with the amount of the field and the member', () => {
    const [marked] = given(...live)
      .when(markPaid())
      .events() as OnboardingEvent[];
    expect(marked).toMatchObject({
      type: 'payment_marked_paid',
      data: {
        field_id: 'pay',
        amount_cents: 15000,
        currency: 'eur',
        member_id: MEMBER,
        note: 'Bank transfer',
      },
    });
    const state = given(...live, marked!).state;
    expect(state.status !== 'absent' && state.fulfilled_fields).toContain('pay');
    given(...live, marked!)
      .when(markPaid())
      .thenThrows('payment_already_received');
  });

  it('is refused for another team, a draft and a field that is no payment', () => {
    given(...live)
      .when(markPaid(OTHER_TEAM))
      .thenThrows('target_unavailable');
    given(withPayment).when(markPaid()).thenThrows('invalid_state');
    given(created(), sent(1, 'draft'))
      .when(
        command('MarkPaid', { team_id: TEAM, field_id: 'f1', payment_id: 'x', member_id: MEMBER, note: 'n' }),
      )
      .thenThrows('field_not_found');
  });
});

describe('a draft refreshed from its template', () => {
  const fixed = snapshot({
    fields2: [field('pay', 'payment', { config: { amount_cents: 9000, currency: 'eur' } })],
  });
  const refresh = (template: { source: 'team'; snapshot: typeof fixed } | null) =>
    command('RefreshTemplate', { team_id: TEAM, member_id: MEMBER, template });

  it('takes the latest version, and nothing when it has it already', () => {
    const [refreshed] = given(withPayment)
      .when(refresh({ source: 'team', snapshot: fixed }))
      .events();
    expect(refreshed?.type).toBe('onboarding_template_refreshed');
    const state = given(withPayment, refreshed!).state;
    expect(state.status !== 'absent' && state.snapshot).toEqual(fixed);
    given(withPayment, refreshed!)
      .when(refresh({ source: 'team', snapshot: fixed }))
      .thenNothingHappened();
  });

  it('only while a draft, and not from a deleted template', () => {
    given(...live)
      .when(refresh({ source: 'team', snapshot: fixed }))
      .thenThrows('invalid_state');
    given(withPayment).when(refresh(null)).thenThrows('template_missing');
  });
});
