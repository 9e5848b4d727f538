import { ONBOARDING_STATUSES } from '../../../services/onboardings/onboarding-events.ts';
import {
  anyValue,
  arrayOf,
  boolean,
  constant,
  date,
  extend,
  integer,
  nonEmpty,
  nullable,
  object,
  oneOfValues,
  ref,
  string,
  timestamp,
  uuid,
} from '../json-schema.ts';
import { reminderSchedule, partial } from './fragments.ts';
import type { EventCatalogPart } from './types.ts';

const onboardingStatus = oneOfValues(ONBOARDING_STATUSES);
const fieldOf = { step_id: nonEmpty, field_id: nonEmpty };
/** The data every review event carries besides the onboarding's ids. */
const reviewOf = {
  step_id: nonEmpty,
  field_id: nonEmpty,
  response_id: nullable(uuid),
  member_id: uuid,
  reviewed_at: timestamp,
};

/** Onboardings: their lifecycle, answers, reviews and payments. */
export const ONBOARDING_EVENTS: EventCatalogPart = {
  // Onboardings (stream onboarding-<onboarding_id>)
  onboarding_created: {
    summary: 'An onboarding was created from a template for a client (a draft).',
    stream: 'onboarding-<onboarding_id>',
    data: extend(
      'OnboardingBase',
      {
        client_id: uuid,
        template_id: uuid,
        template_source: oneOfValues(['team', 'gallery']),
        template_snapshot: ref('TemplateContent'),
        token_hash: nonEmpty,
        due_date: nullable(timestamp),
        due_on: nullable(date),
        due_timezone: nullable(nonEmpty),
        expires_at: nullable(timestamp),
        created_at: timestamp,
      },
      // Events written before teams chose a reminder schedule lack it (3 and 7 days after send).
      { reminder_schedule: reminderSchedule },
    ),
  },
  onboarding_updated: {
    summary: 'Due date or assignee changed; only the changed fields are given.',
    stream: 'onboarding-<onboarding_id>',
    data: extend(
      'OnboardingBase',
      {
        changes: partial({
          due_date: nullable(timestamp),
          due_on: nullable(date),
          due_timezone: nullable(nonEmpty),
          assigned_to: nullable(nonEmpty),
        }),
        updated_at: timestamp,
      },
      // A due date change of a sent or in-progress onboarding: the link's reminder times from then on.
      { reminders_at: arrayOf(timestamp) },
    ),
  },
  onboarding_marked_in_progress: {
    summary: 'A sent onboarding was marked in progress by the team.',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', { from: constant('sent'), marked_at: timestamp }),
  },
  onboarding_cancelled: {
    summary: 'The onboarding was cancelled; its link stops working.',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', { from: onboardingStatus, cancelled_at: timestamp }),
  },
  'onboarding.sent': {
    summary: 'A send or resend happened and the invite email was queued (public event).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      client_id: uuid,
      send_number: integer({ minimum: 1 }),
      resend: boolean,
      from: oneOfValues(['draft', 'sent', 'in_progress']),
      status: oneOfValues(['sent', 'in_progress']),
      counted: boolean,
      usage_month: nullable(string({ pattern: '^[0-9]{4}-[0-9]{2}$' })),
      new_recipient: boolean,
      token_hash: nonEmpty,
      pin: nullable(ref('PinHash')),
      pin_changed: boolean,
      forced: boolean,
      reminders_at: arrayOf(timestamp),
      sent_at: timestamp,
    }),
  },
  'onboarding.started': {
    summary: 'The client opened the link, first time after a send (public event).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      send_number: integer({ minimum: 1 }),
      from: oneOfValues(['sent', 'in_progress']),
      status: constant('in_progress'),
      started_at: timestamp,
    }),
  },
  answer_saved: {
    summary: 'An answer was autosaved as a draft response. The value is personal data.',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      ...fieldOf,
      response_id: nonEmpty,
      value: anyValue,
      saved_at: timestamp,
    }),
  },
  'response.submitted': {
    summary: 'The client submitted a step (public event).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      step_id: nonEmpty,
      responses: arrayOf(object({ response_id: nonEmpty, field_id: nonEmpty })),
      progress_pct: integer({ minimum: 0, maximum: 100 }),
      submitted_at: timestamp,
    }),
  },
  'onboarding.completed': {
    summary: 'The client finished every required step (public event).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', { progress_pct: constant(100), completed_at: timestamp }),
  },
  'signature.signed': {
    summary: "A signature was recorded, the client's or a team member's (public event).",
    stream: 'onboarding-<onboarding_id>',
    data: extend(
      'OnboardingBase',
      {
        ...fieldOf,
        signature_id: nonEmpty,
        signer_name: ref('PersonalValue'),
        signer_email: ref('PersonalValue'),
        signer_role: oneOfValues(['client', 'team_member']),
        member_id: nullable(uuid),
        signed_at: timestamp,
      },
      // Left out of every public body (events feed, hooks, automation); absent on older events.
      {
        evidence: object({
          ip: ref('PersonalValue'),
          user_agent: ref('PersonalValue'),
          consent_text: string(),
          answers_sha256: string({ pattern: '^[0-9a-f]{64}$' }),
          answers_version: integer({ minimum: 1 }),
        }),
      },
    ),
  },
  'file.uploaded': {
    summary: 'The client uploaded a file (public event).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      ...fieldOf,
      file_id: nonEmpty,
      file_name: ref('PersonalValue'),
      content_type: nonEmpty,
      size_bytes: integer({ minimum: 0 }),
      uploaded_at: timestamp,
    }),
  },
  file_removed: {
    summary: 'The client removed a file before submitting its step (internal, not a public event).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', { ...fieldOf, file_id: nonEmpty, removed_at: timestamp }),
  },
  'payment.succeeded': {
    summary: 'A one-time payment succeeded or a recurring subscription became active (public event).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      ...fieldOf,
      payment_id: nonEmpty,
      payment_intent_id: nonEmpty,
      amount_cents: integer({ minimum: 0 }),
      subscription_id: nullable(nonEmpty),
      recurring: boolean,
      interval: nullable(nonEmpty),
      paid_at: timestamp,
    }),
  },
  'onboarding.overdue': {
    summary: 'A sent onboarding passed its due date; once per onboarding (public event).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      due_date: timestamp,
      due_on: nullable(date),
      due_timezone: nullable(nonEmpty),
      overdue_at: timestamp,
    }),
  },
  onboarding_expired: {
    summary: 'The link passed its expiry; the onboarding is closed.',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      from: oneOfValues(['sent', 'in_progress']),
      expires_at: timestamp,
      expired_at: timestamp,
    }),
  },
  onboarding_archived: {
    summary: 'The onboarding was archived.',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', { archived_at: timestamp }),
  },
  onboarding_unarchived: {
    summary: 'The team took an archived onboarding back into its lists.',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', { unarchived_at: timestamp }),
  },
  onboarding_reopened: {
    summary:
      "The team reopened a completed, cancelled or expired onboarding: a new link and invite, sent again; counts once more against the monthly limit. The answers not approved and the approved ones the team unlocked (unlocked_field_ids) are open again; their steps (open_step_ids) are the client's to submit again.",
    stream: 'onboarding-<onboarding_id>',
    data: extend(
      'OnboardingBase',
      {
        client_id: uuid,
        from: oneOfValues(['completed', 'cancelled', 'expired']),
        status: constant('sent'),
        send_number: integer({ minimum: 1 }),
        usage_month: string({ pattern: '^[0-9]{4}-[0-9]{2}$' }),
        new_recipient: boolean,
        token_hash: nonEmpty,
        pin: nullable(ref('PinHash')),
        pin_changed: boolean,
        expires_at: nullable(timestamp),
        reminders_at: arrayOf(timestamp),
        reopened_at: timestamp,
      },
      {
        unlocked_field_ids: arrayOf(nonEmpty),
        open_step_ids: arrayOf(nonEmpty),
        progress_pct: integer({ minimum: 0, maximum: 99 }),
      },
    ),
  },
  response_approved: {
    summary: 'A member approved a submitted answer; the client can no longer change it (internal).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', reviewOf),
  },
  response_rejected: {
    summary:
      'A member rejected a submitted answer with a reason; the client may change it and resubmit (internal).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', { ...reviewOf, reason: string({ minLength: 1, maxLength: 2000 }) }),
  },
  response_changes_requested: {
    summary:
      'A member asked for changes to a submitted answer with a note; the client may change it and resubmit (internal).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', { ...reviewOf, reason: string({ minLength: 1, maxLength: 2000 }) }),
  },
  payment_failed: {
    summary: 'A Checkout payment of a payment field did not go through; the client may try again (internal).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      ...fieldOf,
      checkout_session_id: nonEmpty,
      payment_intent_id: nullable(nonEmpty),
      failed_at: timestamp,
    }),
  },
  payment_renewed: {
    summary:
      'A later period of a subscription was paid (invoice.paid); not a second payment.succeeded (internal).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      ...fieldOf,
      subscription_id: nonEmpty,
      invoice_id: nonEmpty,
      amount_cents: integer({ minimum: 0 }),
      paid_at: timestamp,
    }),
  },
  payment_subscription_ended: {
    summary: "The client's subscription of a payment field ended (internal).",
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', { ...fieldOf, subscription_id: nonEmpty, ended_at: timestamp }),
  },
  payment_refunded: {
    summary:
      'Stripe refunded a payment in full or in part; the amount is the charge total refunded so far (internal).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      ...fieldOf,
      payment_intent_id: nonEmpty,
      charge_id: nonEmpty,
      amount_refunded_cents: integer({ minimum: 0 }),
      fully_refunded: boolean,
      refunded_at: timestamp,
    }),
  },
  payment_marked_paid: {
    summary:
      'An owner or admin recorded money received outside Stripe for a payment field, with a note; it answers the field (internal).',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      ...fieldOf,
      payment_id: uuid,
      amount_cents: integer({ minimum: 0 }),
      currency: string({ minLength: 0, maxLength: 3 }),
      note: string({ minLength: 1, maxLength: 500 }),
      member_id: uuid,
      marked_at: timestamp,
    }),
  },
  onboarding_template_refreshed: {
    summary: "A draft took its template's latest version (internal).",
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      template_snapshot: ref('TemplateContent'),
      member_id: uuid,
      refreshed_at: timestamp,
    }),
  },
  client_reminded: {
    summary:
      'A member sent the client a reminder now (internal); the personal message is only in the sealed email.',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      member_id: uuid,
      send_number: integer({ minimum: 1 }),
      with_message: boolean,
      reminded_at: timestamp,
    }),
  },
  onboarding_document_rendered: {
    summary:
      'The signed PDF of the completed onboarding was rendered and stored with its SHA-256 (internal); the confirmation email is queued with it.',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
      document_id: uuid,
      completed_at: timestamp,
      sha256: string({ pattern: '^[0-9a-f]{64}$' }),
      size_bytes: integer({ minimum: 1 }),
      rendered_at: timestamp,
    }),
  },
  onboarding_client_erased: {
    summary: 'The client was erased; the onboarding leaves every list and its link stops working.',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', { client_id: uuid, erased_at: timestamp }),
  },
};
