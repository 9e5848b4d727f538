import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Kafka, logLevel, type IHeaders, type Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { documentedEventTypes } from '../../../infra/asyncapi/asyncapi-document.ts';
import type { DocumentedEventType } from '../../../infra/asyncapi/event-catalog.ts';
import { DOCUMENT_PATH, renderAsyncApiDocument } from '../../../infra/asyncapi/generate-asyncapi.ts';
import type { ApiKeyEvent } from '../../../services/access/api-key-events.ts';
import type { AccountEvent } from '../../../services/access/workspace/account-events.ts';
import type { AutomationRuleEvent } from '../../../services/automation/automation-rule-events.ts';
import type { ClientEmailEvent } from '../../../services/clients/client-email-index.ts';
import type { ClientEvent } from '../../../services/clients/client-events.ts';
import type { HookSubscriptionEvent } from '../../../services/hooks/hook-subscription-events.ts';
import type { HookSigningEvent } from '../../../services/hooks/hook-signing-decider.ts';
import type { WebhookEndpointEvent } from '../../../services/hooks/webhook-endpoint-decider.ts';
import type { DeliveryLogEvent } from '../../../services/hooks/delivery-log-decider.ts';
import type { OnboardingEvent, TemplateSnapshot } from '../../../services/onboardings/onboarding-events.ts';
import type { TeamEvent, TeamSettings } from '../../../services/access/team-events.ts';
import type { TemplateEvent } from '../../../services/templates/template-events.ts';
import { freePort } from '../../../shared/net/free-port.ts';
import { DEFAULT_TOPIC } from '../../../shared/subscriptions/kafka.ts';
import { startMokapi, type Mokapi } from '../../helpers/mokapi.ts';

type DomainEvent =
  | TeamEvent
  | ApiKeyEvent
  | AccountEvent
  | ClientEvent
  | ClientEmailEvent
  | TemplateEvent
  | HookSubscriptionEvent
  | HookSigningEvent
  | WebhookEndpointEvent
  | DeliveryLogEvent
  | AutomationRuleEvent
  | OnboardingEvent;
type DataOf<Type extends DomainEvent['type']> = Extract<DomainEvent, { type: Type }>['data'];

const id = () => randomUUID();
const team_id = id();
const onboarding_id = id();
const client_id = id();
const rule_id = id();
const at = '2025-03-01T10:00:00.000Z';
const atWithOffset = '2025-03-01T11:00:00.000+01:00';
const sealed = { pd: 'v1' as const, subject: client_id, box: 'aXYgKyB0YWcgKyBjaXBoZXJ0ZXh0' };
const base = { onboarding_id, team_id };
const account = { member_id: id(), team_id, at };
const field = { step_id: 'step-1', field_id: 'field-1' };
const settings: TeamSettings = {
  name: 'Acme Advisors',
  plan: 'pro',
  timezone: 'Europe/Berlin',
  locale: 'de-DE',
  date_format: 'DD.MM.YYYY',
  email_sender_name: null,
  sending_paused: false,
  payments_connected: true,
  monthly_onboarding_limit: 'unlimited',
  unpaid: false,
  new_recipient_cap: null,
};
const template: TemplateSnapshot = {
  name: 'Tax onboarding',
  description: null,
  vertical: 'accounting',
  settings: { color: 'blue' },
  translations: null,
  steps: [
    {
      id: 'step-1',
      title: 'About you',
      sort_order: 0,
      is_optional: false,
      conditional_rules: null,
      translations: { de: { title: 'Über Sie' } },
      fields: [
        {
          id: 'field-1',
          type: 'text',
          label: 'Name',
          sort_order: 0,
          is_required: true,
          config: {},
          conditional_rules: null,
          translations: null,
        },
      ],
    },
  ],
};

/** One event's data per documented type, typed by the domain's own event types. */
const SAMPLES: { [Type in DocumentedEventType]: DataOf<Type> } = {
  'team.created': { team_id, ...settings, created_at: at },
  'team.updated': { team_id, changes: { plan: 'business', sending_paused: true }, updated_at: atWithOffset },
  'team.member_added': {
    team_id,
    member_id: id(),
    name: 'Ada',
    email: 'ada@example.com',
    role: 'admin',
    added_at: at,
  },
  'team.member_invited': {
    team_id,
    invitation_id: id(),
    email: 'ada@example.com',
    role: 'member',
    invited_at: at,
  },
  'team.invitation_resent': { team_id, invitation_id: id(), email: 'ada@example.com', resent_at: at },
  'team.invitation_revoked': { team_id, invitation_id: id(), email: 'ada@example.com', revoked_at: at },
  'team.member_role_changed': { team_id, member_id: id(), role: 'owner', changed_at: at },
  'team.member_locale_chosen': { team_id, member_id: id(), locale: 'de-DE', chosen_at: at },
  'team.member_removed': { team_id, member_id: id(), removed_at: at },
  'team.api_key_slot_taken': { team_id, api_key_id: id(), expires_at: null, taken_at: at },
  'team.api_key_slot_released': { team_id, api_key_id: id(), released_at: at },
  'api_key.created': {
    api_key_id: id(),
    team_id,
    name: 'CRM sync',
    scopes: ['clients:read', 'events:read'],
    key_hash: 'a'.repeat(64),
    expires_at: at,
    created_at: at,
  },
  'api_key.revoked': { api_key_id: id(), team_id, revoked_at: at },
  'account.opened': { ...account },
  'account.signed_in': { ...account, second_factor: true },
  'account.signed_out': { ...account, scope: 'everywhere' },
  'account.sign_in_locked': { ...account, locked_until: at },
  'account.password_changed': { ...account, reason: 'reset' },
  'account.reauthenticated': { ...account, method: 'totp' },
  'account.totp_setup_started': { ...account },
  'account.totp_enabled': { ...account },
  'account.totp_disabled': { ...account },
  'account.email_verification_sent': { ...account },
  'account.email_verified': { ...account },
  'account.recovery_codes_generated': { ...account, count: 10 },
  'account.recovery_code_used': { ...account, codes_left: 9 },
  'client.created': {
    client_id,
    team_id,
    name: sealed,
    email: sealed,
    company: null,
    phone: sealed,
    notes: null,
    custom_fields: sealed,
    locale: 'en-US',
    date_format: 'MM/DD/YYYY',
    timezone: 'America/New_York',
    created_at: at,
  },
  'client.updated': {
    client_id,
    team_id,
    changes: { name: 'Ada L.', email: 'ada.l@example.com', company: null },
    updated_at: at,
  },
  'client.erased': { client_id, team_id, erased_at: at },
  'client_email.reserved': { team_id, client_id },
  'client_email.released': { team_id, client_id },
  'template.created': { ...template, template_id: id(), team_id: null, gallery: true, created_at: at },
  'template.updated': { ...template, template_id: id(), team_id, version: 2, updated_at: at },
  'template.deleted': { template_id: id(), team_id, deleted_at: at },
  'hook_subscription.created': {
    subscription_id: id(),
    team_id,
    event: 'onboarding.completed',
    target_url: 'https://hooks.example.com/onboarding?token=secret',
    api_key_id: null,
    created_at: at,
  },
  'hook_subscription.deleted': { subscription_id: id(), team_id, deleted_at: at },
  'hook_signing_secret.created': { team_id, created_at: at },
  'hook_signing_secret.rotated': { team_id, rotated_at: at, previous_valid_until: at },
  'webhook_endpoint.created': {
    endpoint_id: id(),
    team_id,
    url: 'https://hooks.example.com/endpoint',
    event_types: ['onboarding.sent', 'onboarding.cancelled'],
    enabled: true,
    created_at: at,
  },
  'webhook_endpoint.deleted': { endpoint_id: id(), team_id, deleted_at: at },
  'webhook_endpoint.secret_rotated': { endpoint_id: id(), team_id, rotated_at: at, previous_valid_until: at },
  'hook_delivery.test_requested': {
    target_kind: 'hook',
    target_id: id(),
    team_id,
    delivery_id: id(),
    requested_at: at,
  },
  'hook_delivery.replayed': {
    target_kind: 'endpoint',
    target_id: id(),
    team_id,
    delivery_ids: [id()],
    replayed_at: at,
  },
  'automation_rule.created': {
    rule_id,
    team_id,
    name: 'Welcome mail',
    trigger: 'onboarding.completed',
    action: { type: 'send_email', subject: 'Thanks {{client_name}}', body: 'Line one\nLine two' },
    enabled: true,
    created_at: at,
  },
  'automation_rule.updated': {
    rule_id,
    team_id,
    changes: { action: { type: 'send_webhook', url: 'https://hooks.example.com/x' } },
    updated_at: at,
  },
  'automation_rule.enabled': { rule_id, team_id, enabled_at: at },
  'automation_rule.disabled': { rule_id, team_id, disabled_at: at },
  'automation_rule.deleted': { rule_id, team_id, deleted_at: at },
  onboarding_created: {
    ...base,
    client_id,
    template_id: id(),
    template_source: 'team',
    template_snapshot: template,
    token_hash: 'c'.repeat(64),
    due_date: '2025-03-31T23:59:59.999+02:00',
    due_on: '2025-03-31',
    due_timezone: 'Europe/Berlin',
    expires_at: null,
    created_at: at,
  },
  onboarding_updated: { ...base, changes: { assigned_to: id(), due_date: null }, updated_at: at },
  onboarding_marked_in_progress: { ...base, from: 'sent', marked_at: at },
  onboarding_cancelled: { ...base, from: 'in_progress', cancelled_at: at },
  'onboarding.sent': {
    ...base,
    client_id,
    send_number: 1,
    resend: false,
    from: 'draft',
    status: 'sent',
    counted: true,
    usage_month: '2025-03',
    new_recipient: true,
    token_hash: 'd'.repeat(64),
    pin: { salt: 'salt', hash: 'hash' },
    pin_changed: true,
    forced: false,
    reminders_at: ['2025-03-04T10:00:00.000Z', '2025-03-08T10:00:00.000Z'],
    sent_at: at,
  },
  'onboarding.started': { ...base, send_number: 1, from: 'sent', status: 'in_progress', started_at: at },
  answer_saved: { ...base, ...field, response_id: id(), value: { any: ['json', 1] }, saved_at: at },
  'response.submitted': {
    ...base,
    step_id: 'step-1',
    responses: [{ response_id: id(), field_id: 'field-1' }],
    progress_pct: 50,
    submitted_at: at,
  },
  'onboarding.completed': { ...base, progress_pct: 100, completed_at: at },
  'signature.signed': {
    ...base,
    ...field,
    signature_id: id(),
    signer_name: 'Ada Lovelace',
    signer_email: 'ada@example.com',
    signer_role: 'client',
    member_id: null,
    signed_at: at,
  },
  'file.uploaded': {
    ...base,
    ...field,
    file_id: id(),
    file_name: 'passport.pdf',
    content_type: 'application/pdf',
    size_bytes: 123_456,
    uploaded_at: at,
  },
  file_removed: { ...base, ...field, file_id: id(), removed_at: at },
  'payment.succeeded': {
    ...base,
    ...field,
    payment_id: id(),
    payment_intent_id: 'pi_123',
    amount_cents: 9900,
    subscription_id: null,
    recurring: false,
    interval: null,
    paid_at: at,
  },
  'onboarding.overdue': {
    ...base,
    due_date: at,
    due_on: null,
    due_timezone: null,
    overdue_at: atWithOffset,
  },
  onboarding_expired: { ...base, from: 'sent', expires_at: at, expired_at: at },
  onboarding_archived: { ...base, archived_at: at },
  onboarding_unarchived: { ...base, unarchived_at: at },
  onboarding_reopened: {
    ...base,
    client_id,
    from: 'completed',
    status: 'sent',
    send_number: 2,
    usage_month: '2025-03',
    new_recipient: false,
    token_hash: 'e'.repeat(64),
    pin: null,
    pin_changed: false,
    expires_at: null,
    reminders_at: ['2025-03-04T10:00:00.000Z'],
    reopened_at: at,
  },
  onboarding_client_erased: { ...base, client_id, erased_at: at },
  payment_failed: {
    ...base,
    ...field,
    checkout_session_id: 'cs_123',
    payment_intent_id: null,
    failed_at: at,
  },
  payment_renewed: {
    ...base,
    ...field,
    subscription_id: 'sub_123',
    invoice_id: 'in_123',
    amount_cents: 1500,
    paid_at: at,
  },
  payment_subscription_ended: { ...base, ...field, subscription_id: 'sub_123', ended_at: at },
  payment_refunded: {
    ...base,
    ...field,
    payment_intent_id: 'pi_123',
    charge_id: 'ch_123',
    amount_refunded_cents: 500,
    fully_refunded: false,
    refunded_at: at,
  },
  payment_marked_paid: {
    ...base,
    ...field,
    payment_id: id(),
    amount_cents: 15000,
    currency: 'eur',
    note: 'Bank transfer received on 3 March',
    member_id: id(),
    marked_at: at,
  },
  onboarding_template_refreshed: { ...base, template_snapshot: template, member_id: id(), refreshed_at: at },
  client_reminded: { ...base, member_id: id(), send_number: 1, with_message: true, reminded_at: at },
  onboarding_document_rendered: {
    ...base,
    document_id: id(),
    completed_at: at,
    sha256: 'ab'.repeat(32),
    size_bytes: 20480,
    rendered_at: at,
  },
  response_approved: {
    ...base,
    step_id: 'step-1',
    field_id: 'field-1',
    response_id: id(),
    member_id: id(),
    reviewed_at: at,
  },
  response_rejected: {
    ...{
      ...base,
      step_id: 'step-1',
      field_id: 'field-1',
      response_id: id(),
      member_id: id(),
      reviewed_at: at,
    },
    reason: 'Blurred scan',
  },
  response_changes_requested: {
    ...{
      ...base,
      step_id: 'step-1',
      field_id: 'field-1',
      response_id: id(),
      member_id: id(),
      reviewed_at: at,
    },
    reason: 'Add the suffix',
  },
};

const headers = (type: string, stream = `stream-${type}`): IHeaders => ({
  ce_specversion: '1.0',
  ce_id: randomUUID(),
  ce_source: '/client-onboarding',
  ce_type: type,
  ce_time: at,
  ce_subject: stream,
  'content-type': 'application/json',
  ce_position: '1',
  ce_revision: '0',
  ce_metadata: '{}',
});

/** A second mokapi service: one topic per documented type, each with that type's message from the document. */
function verificationDocument(port: number, types: string[]): string {
  const channels = types
    .map(
      (type) => `  ${type}:
    address: verify.${type}
    messages:
      message:
        $ref: './onboarding-events.yaml#/components/messages/${type}'`,
    )
    .join('\n');
  return `asyncapi: 3.0.0
info:
  title: Event data verification
  version: 1.0.0
servers:
  verify:
    host: '127.0.0.1:${port}'
    protocol: kafka
channels:
${channels}
`;
}

let mokapi: Mokapi;
let verifyBroker: string;
let mainProducer: Producer;
let verifyProducer: Producer;

const connect = async (broker: string) => {
  const producer = new Kafka({
    brokers: [broker],
    clientId: 'test-asyncapi',
    logLevel: logLevel.NOTHING,
  }).producer();
  await producer.connect();
  return producer;
};
const outcome = (attempt: Promise<unknown>) =>
  attempt.then(
    () => 'accepted',
    (error: { type?: string }) => (error.type === 'INVALID_RECORD' ? 'refused' : `failed: ${String(error)}`),
  );

beforeAll(async () => {
  const port = await freePort();
  verifyBroker = `127.0.0.1:${port}`;
  mokapi = await startMokapi({
    files: { 'verify.yaml': verificationDocument(port, documentedEventTypes()) },
  });
  [mainProducer, verifyProducer] = await Promise.all([connect(mokapi.brokers[0]!), connect(verifyBroker)]);
});

afterAll(async () => {
  await Promise.all([mainProducer?.disconnect(), verifyProducer?.disconnect()]);
  await mokapi?.stop();
});

describe('AsyncAPI document infra/asyncapi/onboarding-events.yaml', () => {
  test('is generated from the event catalog and up to date', async () => {
    expect(await readFile(DOCUMENT_PATH, 'utf8')).toBe(await renderAsyncApiDocument());
    expect(documentedEventTypes()).toEqual(Object.keys(SAMPLES).sort());
  });

  test('the channel accepts every documented event, and an event type not documented yet', async () => {
    const sent = Object.entries(SAMPLES).map(([type, data]) => [type, data] as [string, unknown]);
    sent.push(['future_feature.thing_happened', { thing_id: 'x', team_id, happened_at: at }]);
    for (const [type, data] of sent) {
      const result = await outcome(
        mainProducer.send({
          topic: DEFAULT_TOPIC,
          messages: [{ key: `stream-${type}`, value: JSON.stringify(data), headers: headers(type) }],
        }),
      );
      expect(result, type).toBe('accepted');
    }
  });

  test("each documented type's message accepts the domain's data and refuses it without any one of its fields", async () => {
    for (const [type, data] of Object.entries(SAMPLES) as [string, Record<string, unknown>][]) {
      const send = (value: unknown, ceType = type) =>
        outcome(
          verifyProducer.send({
            topic: `verify.${type}`,
            messages: [{ key: `stream-${type}`, value: JSON.stringify(value), headers: headers(ceType) }],
          }),
        );
      expect(await send(data), type).toBe('accepted');
      for (const name of Object.keys(data)) {
        const { [name]: _dropped, ...without } = data;
        expect(await send(without), `${type} without ${name}`).toBe('refused');
      }
      expect(await send(data, 'some.other_type'), `${type} under another ce_type`).toBe('refused');
    }
  });

  test('the typed messages check values, not only presence', async () => {
    const send = (type: DocumentedEventType, value: unknown) =>
      outcome(
        verifyProducer.send({
          topic: `verify.${type}`,
          messages: [{ key: 'k', value: JSON.stringify(value), headers: headers(type) }],
        }),
      );
    const cases: [DocumentedEventType, unknown][] = [
      ['onboarding.completed', { ...SAMPLES['onboarding.completed'], progress_pct: 99 }],
      ['onboarding.completed', { ...SAMPLES['onboarding.completed'], onboarding_id: 'not-a-uuid' }],
      ['team.created', { ...SAMPLES['team.created'], plan: 'platinum' }],
      ['onboarding.sent', { ...SAMPLES['onboarding.sent'], reminders_at: ['next week'] }],
      ['api_key.created', { ...SAMPLES['api_key.created'], scopes: ['root'] }],
      ['account.signed_out', { ...SAMPLES['account.signed_out'], scope: 'somewhere' }],
      ['account.signed_in', { ...SAMPLES['account.signed_in'], second_factor: 'yes' }],
      ['hook_subscription.created', { ...SAMPLES['hook_subscription.created'], event: 'client_created' }],
      [
        'automation_rule.created',
        { ...SAMPLES['automation_rule.created'], action: { type: 'send_email', subject: 'no body' } },
      ],
      ['automation_rule.created', { ...SAMPLES['automation_rule.created'], trigger: 'onboarding.sent' }],
    ];
    for (const [type, value] of cases)
      expect(await send(type, value), `${type} ${JSON.stringify(value)}`).toBe('refused');
  });
});
