import { fold } from '../../../shared/commands/decider.ts';
import { onboardingDecider, type OnboardingCommand } from './index.ts';
import type { SendFacts } from './index.ts';
import type { OnboardingEvent, TemplateSnapshot } from '../onboarding-events.ts';
import type { TemplateField } from '../../templates/index.ts';

/** Shared fixtures of the onboarding decider tests (given-when-then and property-based). */
export const TEAM = '11111111-1111-4111-8111-111111111111';
export const OTHER_TEAM = '22222222-2222-4222-8222-222222222222';
export const ONBOARDING = '33333333-3333-4333-8333-333333333333';
export const CLIENT = '44444444-4444-4444-8444-444444444444';
export const TEMPLATE = '55555555-5555-4555-8555-555555555555';
export const MEMBER = '66666666-6666-4666-8666-666666666666';
export const T0 = new Date('2025-03-10T09:00:00.000Z');

export const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

export function field(id: string, type: string, overrides: Partial<TemplateField> = {}): TemplateField {
  return {
    id,
    type,
    label: `Field ${id}`,
    sort_order: 0,
    is_required: true,
    config: {},
    conditional_rules: null,
    translations: null,
    ...overrides,
  };
}

/** Step s1 (required): a text field and a signature field; step s2 (optional): one optional text field. */
export function snapshot(
  overrides: { fields1?: TemplateField[]; fields2?: TemplateField[] } = {},
): TemplateSnapshot {
  return {
    name: 'Tax intake',
    description: null,
    vertical: 'accounting',
    settings: {},
    translations: null,
    steps: [
      {
        id: 's1',
        title: 'About you',
        sort_order: 0,
        is_optional: false,
        conditional_rules: null,
        translations: null,
        fields: overrides.fields1 ?? [
          field('f1', 'short_text'),
          field('sig', 'signature', { config: { agreement_text: 'I agree.', is_sample_text: false } }),
        ],
      },
      {
        id: 's2',
        title: 'Extras',
        sort_order: 1,
        is_optional: true,
        conditional_rules: null,
        translations: null,
        fields: overrides.fields2 ?? [field('f2', 'short_text', { is_required: false })],
      },
    ],
  };
}

export function facts(overrides: Partial<SendFacts> = {}): SendFacts {
  return {
    client: 'active',
    plan_can_collect_payments: true,
    payments_connected: true,
    sending_paused: false,
    unpaid: false,
    new_recipient: true,
    new_recipients_last_24h: 0,
    new_recipient_cap: 10,
    monthly_limit: 100,
    monthly_used: 0,
    usage_month: '2025-03',
    ...overrides,
  };
}

export const base = { onboarding_id: ONBOARDING, team_id: TEAM };

export function created(template: TemplateSnapshot = snapshot(), token_hash = 'hash-0'): OnboardingEvent {
  return {
    type: 'onboarding_created',
    data: {
      ...base,
      client_id: CLIENT,
      template_id: TEMPLATE,
      template_source: 'team',
      template_snapshot: template,
      token_hash,
      due_date: null,
      due_on: null,
      due_timezone: null,
      expires_at: null,
      created_at: T0.toISOString(),
    },
  };
}

export function sent(
  send_number: number,
  from: 'draft' | 'sent' | 'in_progress',
  minutes = 1,
): OnboardingEvent {
  const sentAt = at(minutes);
  return {
    type: 'onboarding.sent',
    data: {
      ...base,
      client_id: CLIENT,
      send_number,
      resend: send_number > 1,
      from,
      status: from === 'in_progress' ? 'in_progress' : 'sent',
      counted: send_number === 1,
      usage_month: send_number === 1 ? '2025-03' : null,
      new_recipient: send_number === 1,
      token_hash: `hash-${send_number}`,
      pin: null,
      pin_changed: false,
      forced: false,
      reminders_at: [3, 7].map((days) => new Date(sentAt.getTime() + days * 86_400_000).toISOString()),
      sent_at: sentAt.toISOString(),
    },
  };
}

export function started(send_number: number, from: 'sent' | 'in_progress', minutes = 2): OnboardingEvent {
  return {
    type: 'onboarding.started',
    data: { ...base, send_number, from, status: 'in_progress', started_at: at(minutes).toISOString() },
  };
}

export function answered(field_id: string, step_id: string, minutes = 3, response_id = `r-${field_id}`) {
  const event: OnboardingEvent = {
    type: 'answer_saved',
    data: { ...base, step_id, field_id, response_id, value: 'x', saved_at: at(minutes).toISOString() },
  };
  return event;
}

export const cancelled = (from: 'draft' | 'sent' | 'in_progress', minutes = 5): OnboardingEvent => ({
  type: 'onboarding_cancelled',
  data: { ...base, from, cancelled_at: at(minutes).toISOString() },
});

export const archived = (minutes = 5): OnboardingEvent => ({
  type: 'onboarding_archived',
  data: { ...base, archived_at: at(minutes).toISOString() },
});

/** Commands and event runs the decider tests share. */
export const patch = (
  data: Partial<Extract<OnboardingCommand, { type: 'UpdateOnboarding' }>['data']>,
  minutes = 10,
) =>
  ({ type: 'UpdateOnboarding', data: { team_id: TEAM, ...data }, metadata: { now: at(minutes) } }) as const;

export const send = (
  options: { facts?: Partial<SendFacts>; force?: boolean; pin?: boolean } = {},
  minutes = 10,
) =>
  ({
    type: 'SendOnboarding',
    data: {
      team_id: TEAM,
      token_hash: 'hash-new',
      pin: options.pin ? { salt: 's', hash: 'h' } : null,
      force: options.force ?? false,
      facts: facts(options.facts),
    },
    metadata: { now: at(minutes) },
  }) as const;

export const createCommand = (
  overrides: Partial<Extract<OnboardingCommand, { type: 'CreateOnboarding' }>['data']> = {},
): OnboardingCommand => ({
  type: 'CreateOnboarding',
  data: {
    onboarding_id: ONBOARDING,
    team_id: TEAM,
    client_id: CLIENT,
    template_id: TEMPLATE,
    template: { source: 'team', snapshot: snapshot() },
    client: 'active',
    token_hash: 'hash-0',
    due: null,
    expires_at: null,
    ...overrides,
  },
  metadata: { now: T0 },
});

export const open = (token_hash: string, minutes = 20): OnboardingCommand => ({
  type: 'OpenLink',
  data: { token_hash },
  metadata: { now: at(minutes) },
});

export const inProgress = [created(), sent(1, 'draft'), started(1, 'sent')];

/** The client signs the agreement of step s1. */
export function signed(minutes = 4): OnboardingEvent {
  return {
    type: 'signature.signed',
    data: {
      ...base,
      step_id: 's1',
      field_id: 'sig',
      signature_id: 'sg',
      signer_name: 'A',
      signer_email: 'a@example.com',
      signer_role: 'client',
      member_id: null,
      signed_at: at(minutes).toISOString(),
    },
  };
}

export function completedEvents(): OnboardingEvent[] {
  const events = [...inProgress, answered('f1', 's1'), signed()];
  const submit: OnboardingCommand = {
    type: 'SubmitStep',
    data: { token_hash: 'hash-1', step_id: 's1' },
    metadata: { now: at(50) },
  };
  return [...events, ...onboardingDecider.decide(submit, fold(onboardingDecider, events))];
}

export function createdExpiring(): OnboardingEvent {
  const event = created();
  if (event.type !== 'onboarding_created') throw new Error('unreachable');
  return { ...event, data: { ...event.data, expires_at: at(60).toISOString() } };
}

export function expiredEvents(): OnboardingEvent[] {
  const events = [createdExpiring(), sent(1, 'draft')];
  return [
    ...events,
    ...onboardingDecider.decide(
      { type: 'ExpireOnboarding', data: {}, metadata: { now: at(60) } },
      fold(onboardingDecider, events),
    ),
  ];
}
