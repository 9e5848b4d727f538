import { CLOSED_STATUSES, type OnboardingEvent, type OnboardingSent } from '../onboarding-events.ts';
import { ACTIVE_CLIENT_WINDOW_MS } from '../send-policy.ts';
import { reminderTimes } from '../contract/reminder-schedule.ts';
import { AMOUNT_RULE_TEXT, paymentProblem } from '../../templates/contract/payment-amount.ts';
import { isDisplayOnly } from '../../templates/contract/field-catalogue.ts';
import { DomainError } from '../../../shared/commands/decider.ts';
import {
  fieldsNeedingAgreementText,
  findField,
  progressPct,
  requiredPaymentFields,
} from '../template-snapshot.ts';
import type { ReopenOnboarding, SendFacts, SendOnboarding } from './commands.ts';
import { base, fail, fieldError, iso, linkExpired, requireForApi } from './rules.ts';
import type { Onboarding, OnboardingState } from './state.ts';

/** Send, resend and reopen: a new client link, after the spec's send checks. */
/**
 * The send checks in this order (docs/decisions/0028-onboardings.md): 404 target_unavailable (missing, another team's,
 * archived), 410 client_erasure_pending / 404 client_scope_missing, 409 invalid_state
 * (closed), then the spec's six checks (invalid_payment, payment_plan_required,
 * payment_not_connected, agreement_text_required, sending_paused / recipient_cap_reached,
 * limit_reached), and last 409 requires_force: the table's condition reads "all send
 * checks pass and (no answer saved in last 5 minutes, or force is true)".
 */
export function send(command: SendOnboarding, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const { facts } = data;
  const onboarding = requireForApi(state, data.team_id);
  if (onboarding.client_erased_at !== null || facts.client === 'erased') throw fail('client_erasure_pending');
  if (facts.client === 'missing') throw fail('client_scope_missing');
  if (CLOSED_STATUSES.has(onboarding.status)) throw fail('invalid_state', { status: onboarding.status });
  const from = onboarding.status as 'draft' | 'sent' | 'in_progress';
  assertSendable(onboarding, facts);
  const counts = !onboarding.counted;
  if (counts && facts.monthly_limit !== 'unlimited' && facts.monthly_used >= facts.monthly_limit) {
    throw fail('limit_reached');
  }
  if (from === 'in_progress' && !data.force && clientActive(onboarding, metadata.now)) {
    throw fail('requires_force');
  }

  const sentAt = metadata.now;
  const event: OnboardingSent = {
    type: 'onboarding.sent',
    data: {
      ...base(onboarding),
      client_id: onboarding.client_id,
      send_number: onboarding.send_count + 1,
      resend: onboarding.send_count > 0,
      from,
      status: from === 'in_progress' ? 'in_progress' : 'sent',
      counted: counts,
      usage_month: counts ? facts.usage_month : null,
      new_recipient: facts.new_recipient,
      token_hash: data.token_hash,
      pin: data.pin ?? onboarding.pin,
      pin_changed: data.pin !== null,
      forced: data.force,
      reminders_at: reminderTimes(
        onboarding.reminder_schedule,
        sentAt,
        onboarding.due ? new Date(onboarding.due.due_date) : null,
        sentAt,
      ),
      sent_at: iso(sentAt),
    },
  };
  return [event];
}

/**
 * The spec's send checks that do not depend on the monthly count (payments, the agreement
 * text, sending paused, the new-recipient cap): a send and a reopen both pass them.
 */
function assertSendable(onboarding: Onboarding, facts: SendFacts): void {
  const payments = requiredPaymentFields(onboarding.snapshot);
  // The builder's rule: an amount Stripe can charge, in a currency it charges in, once or by an interval.
  for (const located of payments) {
    const problem = paymentProblem(located.field.config);
    if (!problem) continue;
    const label = located.field.label;
    throw fieldError(
      'invalid_payment',
      problem.code === 'amount'
        ? `Payment field "${label}" needs an amount that is ${AMOUNT_RULE_TEXT}`
        : `Payment field "${label}" cannot be collected: ${problem.message}`,
      located,
    );
  }
  if (payments.length > 0 && !facts.plan_can_collect_payments) throw fail('payment_plan_required');
  if (payments.length > 0 && !facts.payments_connected) throw fail('payment_not_connected');
  const agreement = fieldsNeedingAgreementText(onboarding.snapshot)[0];
  if (agreement) {
    throw fieldError(
      'agreement_text_required',
      `Signature field "${agreement.field.label}" needs its own agreement text before sending`,
      agreement,
    );
  }
  if (facts.sending_paused) throw fail('sending_paused');
  if (facts.unpaid && facts.new_recipient && facts.new_recipients_last_24h >= facts.new_recipient_cap) {
    throw fail('recipient_cap_reached');
  }
}

/** The client saved an answer within the last 5 minutes. */
export function clientActive(onboarding: Onboarding, now: Date): boolean {
  if (onboarding.last_answer_saved_at === null) return false;
  return now.getTime() - Date.parse(onboarding.last_answer_saved_at) < ACTIVE_CLIENT_WINDOW_MS;
}

/**
 * What a reopen opens (decision 0077): every answer given and not approved, and the approved
 * ones the member unlocks. The steps holding such an answer (and required steps never
 * submitted) are the client's to submit again; steps of approved answers only stay
 * submitted as they are, so the last open step the client submits completes the onboarding.
 * 409 nothing_to_reopen when no step opens (every answer approved, none unlocked); 400
 * invalid_body when an unlocked id is not a field of the form.
 */
function reopening(onboarding: Onboarding, unlockApproved: readonly string[]) {
  const unknown = unlockApproved.find((fieldId) => !findField(onboarding.snapshot, fieldId));
  if (unknown !== undefined) {
    throw new DomainError('invalid_body', 'unlock_approved names a field the form does not have', {
      field_id: unknown,
    });
  }
  const approved = (fieldId: string) =>
    Object.hasOwn(onboarding.reviews, fieldId) && onboarding.reviews[fieldId]?.status === 'approved';
  const unlocked = [...new Set(unlockApproved)].filter(approved);
  const given = (fieldId: string) =>
    Object.hasOwn(onboarding.answers, fieldId) || onboarding.fulfilled_fields.includes(fieldId);
  const changeable = (fieldId: string) =>
    unlocked.includes(fieldId) || (given(fieldId) && !approved(fieldId));
  const submitted = new Set(onboarding.submitted_steps);
  const open_step_ids = onboarding.snapshot.steps
    .filter(
      (step) =>
        (!step.is_optional && !submitted.has(step.id)) ||
        step.fields.some((field) => !isDisplayOnly(field.type) && changeable(field.id)),
    )
    .map((step) => step.id);
  if (open_step_ids.length === 0) throw fail('nothing_to_reopen');
  const stillSubmitted = new Set(onboarding.submitted_steps.filter((id) => !open_step_ids.includes(id)));
  return {
    unlocked_field_ids: unlocked,
    open_step_ids,
    progress_pct: progressPct(onboarding.snapshot, stillSubmitted),
  };
}

/**
 * Reopen: only a completed, cancelled or expired onboarding (409 invalid_state otherwise),
 * not archived (404 like a send); the send checks apply, and it always counts once more
 * against the monthly limit (403 limit_reached at the limit). A link expiry already
 * passed is cleared, so the new link works.
 */
export function reopen(command: ReopenOnboarding, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const { facts } = data;
  const onboarding = requireForApi(state, data.team_id);
  if (onboarding.client_erased_at !== null || facts.client === 'erased') throw fail('client_erasure_pending');
  if (facts.client === 'missing') throw fail('client_scope_missing');
  if (!CLOSED_STATUSES.has(onboarding.status)) throw fail('invalid_state', { status: onboarding.status });
  const opened = reopening(onboarding, data.unlock_approved ?? []);
  assertSendable(onboarding, facts);
  if (facts.monthly_limit !== 'unlimited' && facts.monthly_used >= facts.monthly_limit) {
    throw fail('limit_reached');
  }
  const now = metadata.now;
  return [
    {
      type: 'onboarding_reopened',
      data: {
        ...base(onboarding),
        client_id: onboarding.client_id,
        from: onboarding.status as 'completed' | 'cancelled' | 'expired',
        status: 'sent',
        send_number: onboarding.send_count + 1,
        usage_month: facts.usage_month,
        new_recipient: facts.new_recipient,
        token_hash: data.token_hash,
        pin: data.pin ?? onboarding.pin,
        pin_changed: data.pin !== null,
        expires_at: linkExpired(onboarding, now) ? null : onboarding.expires_at,
        reminders_at: reminderTimes(
          onboarding.reminder_schedule,
          now,
          onboarding.due ? new Date(onboarding.due.due_date) : null,
          now,
        ),
        reopened_at: iso(now),
        ...opened,
      },
    },
  ];
}
