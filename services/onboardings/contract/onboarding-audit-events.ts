import type { AuditEventMapping } from '../../events/index.ts';
import type { OnboardingEvent, OnboardingEventType } from '../onboarding-events.ts';

/**
 * How onboarding events appear in the events feed (spread into AUDIT_EVENT_TYPES). Details
 * are ids and facts only: no token or PIN hashes, no answer values, no signer names or
 * emails, no file names (personal data stays behind ids). `answer_saved` is left out: an
 * autosave is not an audit event; so is `file_removed`: a file the client takes back
 * before submitting is a draft's change, not an audit event or a public one.
 */
type DataOf<Type extends OnboardingEventType> = Extract<OnboardingEvent, { type: Type }>['data'];

function entry<Type extends OnboardingEventType>(
  name: string,
  details: (data: DataOf<Type>) => Record<string, unknown>,
  occurredAt: (data: DataOf<Type>) => string,
): AuditEventMapping<DataOf<Type>> {
  return {
    name,
    teamId: (data) => data.team_id,
    onboardingId: (data) => data.onboarding_id,
    details: (data) => ({ onboarding_id: data.onboarding_id, ...details(data) }),
    occurredAt,
  };
}

const reviewDetails = (data: DataOf<'response_approved'>) => ({
  step_id: data.step_id,
  field_id: data.field_id,
  response_id: data.response_id,
  member_id: data.member_id,
});

export const ONBOARDING_AUDIT_EVENT_TYPES: Record<string, AuditEventMapping> = {
  onboarding_created: entry<'onboarding_created'>(
    'onboarding_created',
    (data) => ({
      client_id: data.client_id,
      template_id: data.template_id,
      template_source: data.template_source,
      due_date: data.due_date,
      expires_at: data.expires_at,
    }),
    (data) => data.created_at,
  ),
  onboarding_updated: entry<'onboarding_updated'>(
    'onboarding_updated',
    (data) => ({ changes: data.changes }),
    (data) => data.updated_at,
  ),
  onboarding_marked_in_progress: entry<'onboarding_marked_in_progress'>(
    'onboarding_marked_in_progress',
    (data) => ({ from: data.from, status: 'in_progress' }),
    (data) => data.marked_at,
  ),
  onboarding_cancelled: entry<'onboarding_cancelled'>(
    'onboarding_cancelled',
    (data) => ({ from: data.from, status: 'cancelled' }),
    (data) => data.cancelled_at,
  ),
  'onboarding.sent': entry<'onboarding.sent'>(
    'onboarding.sent',
    (data) => ({
      client_id: data.client_id,
      send_number: data.send_number,
      resend: data.resend,
      status: data.status,
      counted: data.counted,
      pin_required: data.pin !== null,
      forced: data.forced,
    }),
    (data) => data.sent_at,
  ),
  'onboarding.started': entry<'onboarding.started'>(
    'onboarding.started',
    (data) => ({ send_number: data.send_number, status: data.status }),
    (data) => data.started_at,
  ),
  'response.submitted': entry<'response.submitted'>(
    'response.submitted',
    (data) => ({
      step_id: data.step_id,
      response_ids: data.responses.map((response) => response.response_id),
      progress_pct: data.progress_pct,
    }),
    (data) => data.submitted_at,
  ),
  'onboarding.completed': entry<'onboarding.completed'>(
    'onboarding.completed',
    (data) => ({ progress_pct: data.progress_pct }),
    (data) => data.completed_at,
  ),
  'signature.signed': entry<'signature.signed'>(
    'signature.signed',
    (data) => ({
      field_id: data.field_id,
      signature_id: data.signature_id,
      signer_role: data.signer_role,
      member_id: data.member_id,
    }),
    (data) => data.signed_at,
  ),
  'file.uploaded': entry<'file.uploaded'>(
    'file.uploaded',
    (data) => ({
      field_id: data.field_id,
      file_id: data.file_id,
      content_type: data.content_type,
      size_bytes: data.size_bytes,
    }),
    (data) => data.uploaded_at,
  ),
  'payment.succeeded': entry<'payment.succeeded'>(
    'payment.succeeded',
    (data) => ({
      field_id: data.field_id,
      payment_id: data.payment_id,
      payment_intent_id: data.payment_intent_id,
      amount_cents: data.amount_cents,
      subscription_id: data.subscription_id,
      recurring: data.recurring,
      interval: data.interval,
    }),
    (data) => data.paid_at,
  ),
  'onboarding.overdue': entry<'onboarding.overdue'>(
    'onboarding.overdue',
    (data) => ({ due_date: data.due_date, due_on: data.due_on, due_timezone: data.due_timezone }),
    (data) => data.overdue_at,
  ),
  onboarding_expired: entry<'onboarding_expired'>(
    'onboarding_expired',
    (data) => ({ from: data.from, expires_at: data.expires_at }),
    (data) => data.expired_at,
  ),
  onboarding_unarchived: entry<'onboarding_unarchived'>(
    'onboarding_unarchived',
    () => ({}),
    (data) => data.unarchived_at,
  ),
  onboarding_reopened: entry<'onboarding_reopened'>(
    'onboarding_reopened',
    (data) => ({
      client_id: data.client_id,
      from: data.from,
      status: data.status,
      send_number: data.send_number,
      usage_month: data.usage_month,
      pin_changed: data.pin_changed,
      expires_at: data.expires_at,
    }),
    (data) => data.reopened_at,
  ),
  onboarding_archived: entry<'onboarding_archived'>(
    'onboarding_archived',
    () => ({}),
    (data) => data.archived_at,
  ),
  // Reviews: ids only (the reason is the member's free text, read in the workspace).
  response_approved: entry<'response_approved'>(
    'response_approved',
    (data) => reviewDetails(data),
    (data) => data.reviewed_at,
  ),
  response_rejected: entry<'response_rejected'>(
    'response_rejected',
    (data) => reviewDetails(data),
    (data) => data.reviewed_at,
  ),
  response_changes_requested: entry<'response_changes_requested'>(
    'response_changes_requested',
    (data) => reviewDetails(data),
    (data) => data.reviewed_at,
  ),
  // Payments after payment.succeeded: the processor's ids and amounts (a Mark as paid note is the member's free text, read in the workspace).
  payment_failed: entry<'payment_failed'>(
    'payment_failed',
    (data) => ({
      field_id: data.field_id,
      checkout_session_id: data.checkout_session_id,
      payment_intent_id: data.payment_intent_id,
    }),
    (data) => data.failed_at,
  ),
  payment_renewed: entry<'payment_renewed'>(
    'payment_renewed',
    (data) => ({
      field_id: data.field_id,
      subscription_id: data.subscription_id,
      invoice_id: data.invoice_id,
      amount_cents: data.amount_cents,
    }),
    (data) => data.paid_at,
  ),
  payment_subscription_ended: entry<'payment_subscription_ended'>(
    'payment_subscription_ended',
    (data) => ({ field_id: data.field_id, subscription_id: data.subscription_id }),
    (data) => data.ended_at,
  ),
  payment_refunded: entry<'payment_refunded'>(
    'payment_refunded',
    (data) => ({
      field_id: data.field_id,
      payment_intent_id: data.payment_intent_id,
      charge_id: data.charge_id,
      amount_refunded_cents: data.amount_refunded_cents,
      fully_refunded: data.fully_refunded,
    }),
    (data) => data.refunded_at,
  ),
  payment_marked_paid: entry<'payment_marked_paid'>(
    'payment_marked_paid',
    (data) => ({
      field_id: data.field_id,
      payment_id: data.payment_id,
      amount_cents: data.amount_cents,
      currency: data.currency,
      member_id: data.member_id,
    }),
    (data) => data.marked_at,
  ),
  onboarding_template_refreshed: entry<'onboarding_template_refreshed'>(
    'onboarding_template_refreshed',
    (data) => ({ member_id: data.member_id }),
    (data) => data.refreshed_at,
  ),
  client_reminded: entry<'client_reminded'>(
    'client_reminded',
    (data) => ({ member_id: data.member_id, send_number: data.send_number, with_message: data.with_message }),
    (data) => data.reminded_at,
  ),
  onboarding_document_rendered: entry<'onboarding_document_rendered'>(
    'onboarding_document_rendered',
    (data) => ({ document_id: data.document_id, completed_at: data.completed_at, sha256: data.sha256 }),
    (data) => data.rendered_at,
  ),
  onboarding_client_erased: entry<'onboarding_client_erased'>(
    'onboarding_client_erased',
    (data) => ({ client_id: data.client_id }),
    (data) => data.erased_at,
  ),
};
