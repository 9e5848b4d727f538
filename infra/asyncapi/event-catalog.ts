import type { ApiKeyEvent } from '../../services/access/api-key-events.ts';
import type { AccountEvent } from '../../services/access/workspace/account-events.ts';
import {
  AUTOMATION_TRIGGERS,
  RULE_LIMITS,
  type AutomationRuleEvent,
} from '../../services/automation/automation-rule-events.ts';
import { SCOPES } from '../../services/access/contract/scopes.ts';
import type { ClientEmailEvent } from '../../services/clients/client-email-index.ts';
import type { ClientEvent } from '../../services/clients/client-events.ts';
import type { HookSubscriptionEvent } from '../../services/hooks/hook-subscription-events.ts';
import type { HookSigningEvent } from '../../services/hooks/hook-signing-decider.ts';
import type { WebhookEndpointEvent } from '../../services/hooks/webhook-endpoint-decider.ts';
import type { DeliveryLogEvent } from '../../services/hooks/delivery-log-decider.ts';
import { WEBHOOK_EVENT_TYPES } from '../../services/hooks/contract/webhook-event-types.ts';
import { ONBOARDING_STATUSES, type OnboardingEvent } from '../../services/onboardings/onboarding-events.ts';
import { PUBLIC_EVENT_TYPES } from '../../services/events/contract/public-event-types.ts';
import { PLANS } from '../../services/access/contract/plans.ts';
import {
  MAX_REMINDER_DAYS,
  MAX_REMINDER_RULES,
  MIN_REMINDER_DAYS,
  REMINDER_WHEN,
} from '../../services/onboardings/contract/reminder-schedule.ts';
import { MEMBER_ROLES } from '../../services/access/contract/roles.ts';
import type { TeamEvent } from '../../services/access/team-events.ts';
import { DATE_FORMATS } from '../../shared/i18n/locales.ts';
import type { TemplateEvent } from '../../services/templates/template-events.ts';
import {
  anyValue,
  arrayOf,
  boolean,
  constant,
  date,
  extend,
  integer,
  jsonObject,
  nonEmpty,
  nullable,
  object,
  oneOfValues,
  ref,
  string,
  text,
  timestamp,
  uuid,
  type JsonSchema,
} from './json-schema.ts';

/**
 * The registry infra/asyncapi/onboarding-events.yaml is generated from
 * (`npx tsx infra/asyncapi/generate-asyncapi.ts`): the JSON Schema of the `data` of every
 * documented event type, and the shared schemas they use.
 *
 * Keys are typed against the domain's event unions, so a misspelt or removed type fails
 * type-checking. A type that is not listed yet still travels (the document's message
 * accepts any ce_type with data of the common shape, `EventData`); list it here and
 * regenerate to document its data.
 */
export type DocumentedEventType =
  | TeamEvent['type']
  | ApiKeyEvent['type']
  | AccountEvent['type']
  | ClientEvent['type']
  | ClientEmailEvent['type']
  | TemplateEvent['type']
  | HookSubscriptionEvent['type']
  | HookSigningEvent['type']
  | WebhookEndpointEvent['type']
  | DeliveryLogEvent['type']
  | AutomationRuleEvent['type']
  | OnboardingEvent['type'];

export interface EventTypeDoc {
  /** One line: what happened. */
  summary: string;
  /** The stream it is appended to (ce_subject / Kafka key), as a pattern for readers. */
  stream: string;
  data: JsonSchema;
}

/** Shared schemas (components/schemas), referenced from the event data schemas. */
export const SHARED_SCHEMAS: Record<string, JsonSchema> = {
  SealedValue: {
    description:
      "A personal value encrypted with its data subject's own key (crypto-shredding). Published sealed, as stored; unreadable for good once the subject is erased.",
    ...object({
      pd: constant('v1'),
      subject: uuid,
      box: string({ description: 'base64 of iv, auth tag and ciphertext' }),
    }),
  },
  PersonalValue: {
    description: 'A personal value: sealed, or plain text in events written before sealing.',
    anyOf: [ref('SealedValue'), text],
  },
  PinHash: object({ salt: text, hash: text }),
  OnboardingBase: {
    description: 'Every onboarding event names its onboarding and team.',
    ...object({ onboarding_id: uuid, team_id: uuid }),
  },
  AutomationAction: {
    description: 'The action a rule takes, as the operator API writes it.',
    anyOf: [
      object({
        type: constant('send_email'),
        subject: string({ maxLength: RULE_LIMITS.subject }),
        body: string({ maxLength: RULE_LIMITS.body }),
      }),
      object({ type: constant('send_webhook'), url: string({ format: 'uri', maxLength: RULE_LIMITS.url }) }),
      object({ type: constant('create_onboarding'), template_id: uuid }),
      object({
        type: constant('notify_member'),
        member_id: uuid,
        message: string({ maxLength: RULE_LIMITS.message }),
      }),
    ],
  },
  TemplateField: object({
    id: nonEmpty,
    type: nonEmpty,
    label: text,
    sort_order: integer(),
    is_required: boolean,
    config: jsonObject,
    conditional_rules: anyValue,
    translations: anyValue,
  }),
  TemplateStep: object({
    id: nonEmpty,
    title: text,
    sort_order: integer(),
    is_optional: boolean,
    conditional_rules: anyValue,
    translations: anyValue,
    fields: arrayOf(ref('TemplateField')),
  }),
  TemplateContent: object({
    name: text,
    description: nullable(text),
    vertical: nullable(text),
    settings: jsonObject,
    translations: anyValue,
    steps: arrayOf(ref('TemplateStep')),
  }),
};

const teamSettings = {
  name: text,
  plan: oneOfValues(PLANS),
  timezone: nonEmpty,
  locale: nonEmpty,
  date_format: oneOfValues(DATE_FORMATS),
  email_sender_name: nullable(text),
  sending_paused: boolean,
  payments_connected: boolean,
  monthly_onboarding_limit: {
    anyOf: [integer({ minimum: 0 }), constant('unlimited'), { type: 'null' }],
    description: "Override of the plan's monthly cap; null keeps the plan's.",
  },
  unpaid: boolean,
  new_recipient_cap: nullable(integer({ minimum: 0 })),
};

/** The team's branding of the client's form page (services/access/team-branding.ts); changed by PATCH only. */
const teamBranding = {
  accent_color: nullable(string({ pattern: '^#[0-9a-f]{6}$' })),
  logo: nullable(
    object({
      sha256: string({ pattern: '^[0-9a-f]{64}$' }),
      content_type: oneOfValues(['image/png', 'image/jpeg', 'image/webp']),
      size_bytes: integer({ minimum: 1 }),
    }),
  ),
};

const reminderRule = object({
  when: oneOfValues([...REMINDER_WHEN]),
  days: integer({ minimum: MIN_REMINDER_DAYS, maximum: MAX_REMINDER_DAYS }),
});
const reminderSchedule = arrayOf(reminderRule, { maxItems: MAX_REMINDER_RULES });

const partial = (properties: Record<string, JsonSchema>) => object({}, properties);

/** A client's personal details, each sealed with the client's key (client.created, client.updated). */
const clientDetails = {
  name: ref('PersonalValue'),
  email: ref('PersonalValue'),
  company: nullable(ref('PersonalValue')),
  phone: nullable(ref('PersonalValue')),
  notes: nullable(ref('PersonalValue')),
  custom_fields: {
    ...ref('PersonalValue'),
    description: 'JSON text of the custom fields object, sealed',
  },
};

const onboardingStatus = oneOfValues(ONBOARDING_STATUSES);
const rule = { rule_id: uuid, team_id: uuid };
const fieldOf = { step_id: nonEmpty, field_id: nonEmpty };

/** The data of every account event: the member, their team, when, and the event's own facts. */
const accountFact = (extra: Record<string, JsonSchema> = {}): JsonSchema =>
  object({ member_id: uuid, team_id: uuid, at: timestamp, ...extra });

/** The data every review event carries besides the onboarding's ids. */
const reviewOf = {
  step_id: nonEmpty,
  field_id: nonEmpty,
  response_id: nullable(uuid),
  member_id: uuid,
  reviewed_at: timestamp,
};

export const EVENT_CATALOG: { [Type in DocumentedEventType]?: EventTypeDoc } = {
  // Teams and members (stream team-<team_id>)
  'team.created': {
    summary: 'A team was created with its settings.',
    stream: 'team-<team_id>',
    data: object({ team_id: uuid, ...teamSettings, created_at: timestamp }),
  },
  'team.updated': {
    summary: 'Team settings changed; only the changed settings are given.',
    stream: 'team-<team_id>',
    data: object({
      team_id: uuid,
      changes: partial({ ...teamSettings, ...teamBranding, reminder_schedule: reminderSchedule }),
      updated_at: timestamp,
    }),
  },
  'team.member_added': {
    summary: 'A member joined the team.',
    stream: 'team-<team_id>',
    data: object({
      team_id: uuid,
      member_id: uuid,
      name: text,
      email: text,
      role: oneOfValues(MEMBER_ROLES),
      added_at: timestamp,
    }),
  },
  'team.member_invited': {
    summary: 'An owner invited someone by email; the one-time link itself is not in the event.',
    stream: 'team-<team_id>',
    data: object({
      team_id: uuid,
      invitation_id: uuid,
      email: text,
      role: oneOfValues(MEMBER_ROLES),
      invited_at: timestamp,
    }),
  },
  'team.invitation_resent': {
    summary: 'An owner or admin emailed a pending invitation again; a new link replaced the older one.',
    stream: 'team-<team_id>',
    data: object({ team_id: uuid, invitation_id: uuid, email: text, resent_at: timestamp }),
  },
  'team.invitation_revoked': {
    summary: 'An owner or admin revoked a pending invitation; its link no longer accepts.',
    stream: 'team-<team_id>',
    data: object({ team_id: uuid, invitation_id: uuid, email: text, revoked_at: timestamp }),
  },
  'team.member_role_changed': {
    summary: "A member's role changed.",
    stream: 'team-<team_id>',
    data: object({ team_id: uuid, member_id: uuid, role: oneOfValues(MEMBER_ROLES), changed_at: timestamp }),
  },
  'team.member_removed': {
    summary: 'A member left the team.',
    stream: 'team-<team_id>',
    data: object({ team_id: uuid, member_id: uuid, removed_at: timestamp }),
  },
  'team.api_key_slot_taken': {
    summary: "An API key took one of the team's key slots.",
    stream: 'team-<team_id>',
    data: object({ team_id: uuid, api_key_id: uuid, expires_at: nullable(timestamp), taken_at: timestamp }),
  },
  'team.api_key_slot_released': {
    summary: 'An API key gave its slot back (revoked or expired).',
    stream: 'team-<team_id>',
    data: object({ team_id: uuid, api_key_id: uuid, released_at: timestamp }),
  },

  // API keys (stream api_key-<api_key_id>)
  'api_key.created': {
    summary: 'An API key was created. Only the SHA-256 of its secret is kept.',
    stream: 'api_key-<api_key_id>',
    data: object(
      {
        api_key_id: uuid,
        team_id: uuid,
        name: text,
        scopes: arrayOf(oneOfValues(SCOPES)),
        key_hash: nonEmpty,
        expires_at: nullable(timestamp),
        created_at: timestamp,
      },
      { replaces_api_key_id: uuid },
    ),
  },
  'api_key.revoked': {
    summary: 'An API key was revoked.',
    stream: 'api_key-<api_key_id>',
    data: object({ api_key_id: uuid, team_id: uuid, revoked_at: timestamp }),
  },

  // Workspace accounts (stream member_account-<member_id>): facts only; the password hash,
  // the two-factor secret and the sessions stay in operational tables.
  'account.opened': {
    summary: 'A member got a workspace account (sign-up or an accepted invitation).',
    stream: 'member_account-<member_id>',
    data: accountFact(),
  },
  'account.signed_in': {
    summary: 'The member signed in to the workspace; second_factor says whether a two-factor code was given.',
    stream: 'member_account-<member_id>',
    data: accountFact({ second_factor: boolean }),
  },
  'account.signed_out': {
    summary:
      'Sessions of the member ended: the current one, every one (sign out everywhere), every one after a password reset, or every other one (two-factor turned on, password changed).',
    stream: 'member_account-<member_id>',
    data: accountFact({ scope: oneOfValues(['current', 'everywhere', 'password_reset', 'other_sessions']) }),
  },
  'account.sign_in_locked': {
    summary: 'Too many wrong passwords locked signing in to the account until locked_until.',
    stream: 'member_account-<member_id>',
    data: accountFact({ locked_until: timestamp }),
  },
  'account.password_changed': {
    summary:
      'The password changed (through a reset link, or changed by the signed-in member); the hash is not in the event.',
    stream: 'member_account-<member_id>',
    data: accountFact({ reason: oneOfValues(['reset', 'change']) }),
  },
  'account.reauthenticated': {
    summary: 'The member confirmed their password or a two-factor code for a sensitive action.',
    stream: 'member_account-<member_id>',
    data: accountFact({ method: oneOfValues(['password', 'totp']) }),
  },
  'account.totp_setup_started': {
    summary: 'The member started setting up two-factor sign-in (not on until confirmed).',
    stream: 'member_account-<member_id>',
    data: accountFact(),
  },
  'account.totp_enabled': {
    summary: 'Two-factor sign-in was turned on with a confirmed code.',
    stream: 'member_account-<member_id>',
    data: accountFact(),
  },
  'account.totp_disabled': {
    summary: 'Two-factor sign-in was turned off (after a re-authentication).',
    stream: 'member_account-<member_id>',
    data: accountFact(),
  },
  'account.recovery_codes_generated': {
    summary:
      'New one-time recovery codes replaced the older ones (two-factor turned on, or regenerated); the codes are not in the event.',
    stream: 'member_account-<member_id>',
    data: accountFact({ count: integer() }),
  },
  'account.recovery_code_used': {
    summary: 'A recovery code stood in for a two-factor code at sign-in; codes_left counts the unused ones.',
    stream: 'member_account-<member_id>',
    data: accountFact({ codes_left: integer() }),
  },
  'account.email_verification_sent': {
    summary:
      'A self-serve owner was emailed a link to verify their address (at sign-up or a resend); until it is followed the team sends nothing.',
    stream: 'member_account-<member_id>',
    data: accountFact(),
  },
  'account.email_verified': {
    summary:
      'The owner followed the emailed link: their team may send onboardings, invitations and automation mail.',
    stream: 'member_account-<member_id>',
    data: accountFact(),
  },

  // Clients (stream client-<client_id>; email reservations of old logs client_email-<team_id>-<client_id>)
  'client.created': {
    summary: "A client was created. Personal fields are sealed with the client's key.",
    stream: 'client-<client_id>',
    data: object({
      client_id: uuid,
      team_id: uuid,
      ...clientDetails,
      locale: nonEmpty,
      date_format: nonEmpty,
      timezone: nonEmpty,
      created_at: timestamp,
    }),
  },
  'client.updated': {
    summary: "The team changed a client's details; only the changed fields, sealed as in client.created.",
    stream: 'client-<client_id>',
    data: object({
      client_id: uuid,
      team_id: uuid,
      changes: partial(clientDetails),
      updated_at: timestamp,
    }),
  },
  'client.erased': {
    summary: 'The client was erased: its key is deleted, so its sealed values are unreadable for good.',
    stream: 'client-<client_id>',
    data: object({ client_id: uuid, team_id: uuid, erased_at: timestamp }),
  },
  'client_email.reserved': {
    summary:
      'In logs written before the email index table only (no longer written): a client held an email address within its team.',
    stream: 'client_email-<team_id>-<client_id>',
    data: object({ team_id: uuid, client_id: uuid }),
  },
  'client_email.released': {
    summary:
      'In logs written before the email index table only (no longer written): a client gave its email address back.',
    stream: 'client_email-<team_id>-<client_id>',
    data: object({ team_id: uuid, client_id: uuid }),
  },

  // Templates (stream template-<template_id>)
  'template.created': {
    summary: 'A template was created (team_id null and gallery true for a gallery template).',
    stream: 'template-<template_id>',
    data: {
      allOf: [
        ref('TemplateContent'),
        object({ template_id: uuid, team_id: nullable(uuid), gallery: boolean, created_at: timestamp }),
      ],
    },
  },
  'template.updated': {
    summary:
      'The builder saved a template: its whole new definition and version; onboardings created before keep their snapshot.',
    stream: 'template-<template_id>',
    data: {
      allOf: [
        ref('TemplateContent'),
        object({ template_id: uuid, team_id: uuid, version: integer({ minimum: 2 }), updated_at: timestamp }),
      ],
    },
  },
  'template.deleted': {
    summary: 'A template was deleted.',
    stream: 'template-<template_id>',
    data: object({ template_id: uuid, team_id: nullable(uuid), deleted_at: timestamp }),
  },

  // Hook subscriptions (stream hook_subscription-<subscription_id>)
  'hook_subscription.created': {
    summary: 'A hook subscription was created for one public event type.',
    stream: 'hook_subscription-<subscription_id>',
    data: object({
      subscription_id: uuid,
      team_id: uuid,
      event: oneOfValues(PUBLIC_EVENT_TYPES),
      target_url: string({ format: 'uri' }),
      api_key_id: nullable(uuid),
      created_at: timestamp,
    }),
  },
  'hook_subscription.deleted': {
    summary: 'A hook subscription was deleted.',
    stream: 'hook_subscription-<subscription_id>',
    data: object({ subscription_id: uuid, team_id: uuid, deleted_at: timestamp }),
  },

  // Signed deliveries: secrets live in operational tables, never in these events.
  'hook_signing_secret.created': {
    summary: "The team's hook signing secret was made (on first need).",
    stream: 'hook_signing-<team_id>',
    data: object({ team_id: uuid, created_at: timestamp }),
  },
  'hook_signing_secret.rotated': {
    summary:
      "The team's hook signing secret was replaced; the previous one signs too until previous_valid_until.",
    stream: 'hook_signing-<team_id>',
    data: object({ team_id: uuid, rotated_at: timestamp, previous_valid_until: timestamp }),
  },
  'webhook_endpoint.created': {
    summary: 'A signed webhook endpoint was created with its own secret (not in the event).',
    stream: 'webhook_endpoint-<endpoint_id>',
    data: object({
      endpoint_id: uuid,
      team_id: uuid,
      url: string({ format: 'uri' }),
      event_types: arrayOf(oneOfValues(WEBHOOK_EVENT_TYPES)),
      enabled: boolean,
      created_at: timestamp,
    }),
  },
  'webhook_endpoint.deleted': {
    summary: 'A signed webhook endpoint was deleted; its queued deliveries fail.',
    stream: 'webhook_endpoint-<endpoint_id>',
    data: object({ endpoint_id: uuid, team_id: uuid, deleted_at: timestamp }),
  },
  'webhook_endpoint.secret_rotated': {
    summary: "The endpoint's secret was replaced; the previous one signs too until previous_valid_until.",
    stream: 'webhook_endpoint-<endpoint_id>',
    data: object({
      endpoint_id: uuid,
      team_id: uuid,
      rotated_at: timestamp,
      previous_valid_until: timestamp,
    }),
  },
  'hook_delivery.test_requested': {
    summary: 'A test delivery (event webhook.test) was queued to a hook subscription or webhook endpoint.',
    stream: 'hook_delivery_log-<target_id>',
    data: object({
      target_kind: oneOfValues(['hook', 'endpoint']),
      target_id: uuid,
      team_id: uuid,
      delivery_id: uuid,
      requested_at: timestamp,
    }),
  },
  'hook_delivery.replayed': {
    summary: 'Deliveries were queued again (same webhook-id and body).',
    stream: 'hook_delivery_log-<target_id>',
    data: object({
      target_kind: oneOfValues(['hook', 'endpoint']),
      target_id: uuid,
      team_id: uuid,
      delivery_ids: arrayOf(uuid),
      replayed_at: timestamp,
    }),
  },

  // Automation rules (stream automation_rule-<rule_id>)
  'automation_rule.created': {
    summary: 'An automation rule was created: one trigger, one action.',
    stream: 'automation_rule-<rule_id>',
    data: object({
      ...rule,
      name: string({ maxLength: RULE_LIMITS.name }),
      trigger: oneOfValues(AUTOMATION_TRIGGERS),
      action: ref('AutomationAction'),
      enabled: boolean,
      created_at: timestamp,
    }),
  },
  'automation_rule.updated': {
    summary: 'An automation rule changed; only the changed name or action is given.',
    stream: 'automation_rule-<rule_id>',
    data: object({
      ...rule,
      changes: partial({ name: string({ maxLength: RULE_LIMITS.name }), action: ref('AutomationAction') }),
      updated_at: timestamp,
    }),
  },
  'automation_rule.enabled': {
    summary: 'An automation rule was switched on.',
    stream: 'automation_rule-<rule_id>',
    data: object({ ...rule, enabled_at: timestamp }),
  },
  'automation_rule.disabled': {
    summary: 'An automation rule was switched off.',
    stream: 'automation_rule-<rule_id>',
    data: object({ ...rule, disabled_at: timestamp }),
  },
  'automation_rule.deleted': {
    summary: 'An automation rule was deleted.',
    stream: 'automation_rule-<rule_id>',
    data: object({ ...rule, deleted_at: timestamp }),
  },

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
    data: extend('OnboardingBase', {
      ...fieldOf,
      signature_id: nonEmpty,
      signer_name: ref('PersonalValue'),
      signer_email: ref('PersonalValue'),
      signer_role: oneOfValues(['client', 'team_member']),
      member_id: nullable(uuid),
      signed_at: timestamp,
    }),
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
      'The team reopened a completed, cancelled or expired onboarding: a new link and invite, sent again; counts once more against the monthly limit.',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', {
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
    }),
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
  onboarding_client_erased: {
    summary: 'The client was erased; the onboarding leaves every list and its link stops working.',
    stream: 'onboarding-<onboarding_id>',
    data: extend('OnboardingBase', { client_id: uuid, erased_at: timestamp }),
  },
};
