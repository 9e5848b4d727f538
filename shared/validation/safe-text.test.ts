import { describe, expect, it } from 'vitest';
import { apiKeyDecider } from '../../services/access/api-key-decider.ts';
import { automationRuleDecider } from '../../services/automation/automation-rule-decider.ts';
import { clientDecider, type CreateClient } from '../../services/clients/client-decider.ts';
import { DomainError } from '../commands/decider.ts';
import { hookSubscriptionDecider } from '../../services/hooks/hook-subscription-decider.ts';
import { parseDeadline } from '../../services/onboardings/deadlines.ts';
import { onboardingDecider, type OnboardingCommand } from '../../services/onboardings/decider/index.ts';
import {
  assertStorable,
  findUnstorable,
  isInt4,
  isStorableInstant,
  isStorableText,
  MAX_NESTING_DEPTH,
  unstorableMessage,
} from './safe-text.ts';
import { teamDecider } from '../../services/access/team-decider.ts';
import { templateDecider } from '../../services/templates/template-decider.ts';

const now = new Date('2026-03-01T10:00:00.000Z');
const id = '11111111-1111-4111-8111-111111111111';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = { next: value };
  return value;
}

describe('isStorableText', () => {
  it.each(['', 'plain', 'Zoë', '😀 a pair', '\ud83d\ude00', 'tab\tand\nnewline', '\u0001'])(
    'keeps %j',
    (text) => {
      expect(isStorableText(text)).toBe(true);
    },
  );

  it.each(['\u0000', 'a\u0000b', '\ud800', 'a\udc00b', 'x\udbff', '\udfffx', '\ude00\ud83d'])(
    'refuses %j',
    (text) => {
      expect(isStorableText(text)).toBe(false);
    },
  );
});

describe('isInt4 and isStorableInstant', () => {
  it('takes whole numbers of the int4 range only', () => {
    expect([0, -2147483648, 2147483647].every(isInt4)).toBe(true);
    expect([2147483648, -2147483649, 1e20, 1.5, Number.NaN, Infinity].some(isInt4)).toBe(false);
  });

  it('takes years 1 to 9999, as written and in UTC', () => {
    expect(isStorableInstant('2026-01-01T00:00:00Z')).toBe(true);
    expect(isStorableInstant('9999-12-31T23:59:59.999Z')).toBe(true);
    expect(isStorableInstant('0001-01-01T00:00:00Z')).toBe(true);
    expect(isStorableInstant('0000-12-31T23:59:59.999+00:00')).toBe(false);
    expect(isStorableInstant('0001-01-01T00:00:00+01:00')).toBe(false); // year 0 in UTC
    expect(isStorableInstant('+010000-01-01T00:00:00Z')).toBe(false);
    expect(isStorableInstant('not a date')).toBe(false);
    expect(isStorableInstant(new Date(Date.UTC(10000, 0, 1)))).toBe(false);
  });
});

describe('findUnstorable', () => {
  it('finds a bad string at any depth, keys included, and names where', () => {
    const found = findUnstorable({ custom_fields: { list: ['ok', { deep: 'x\u0000' }] } });
    expect(found).toEqual({ path: ['custom_fields', 'list', 1, 'deep'], problem: 'text' });
    expect(unstorableMessage(found!)).toBe(
      'custom_fields.list[1].deep contains a NUL character or an unpaired surrogate',
    );
    expect(findUnstorable({ custom_fields: { 'k\ud800': 1 } })).toEqual({
      path: ['custom_fields'],
      problem: 'key',
    });
  });

  it('refuses non-finite numbers and nesting deeper than the limit', () => {
    expect(findUnstorable({ n: Infinity })?.problem).toBe('number');
    expect(findUnstorable(nested(MAX_NESTING_DEPTH))).toBeUndefined();
    expect(findUnstorable(nested(MAX_NESTING_DEPTH + 1))?.problem).toBe('depth');
  });

  it('leaves binary data alone and accepts ordinary values', () => {
    expect(
      findUnstorable({ file: Buffer.from([0, 0xff]), when: now, list: [1, null, true] }),
    ).toBeUndefined();
  });

  it('assertStorable throws invalid_body with details.issues', () => {
    expect(() => assertStorable({ name: 'a\u0000' })).toThrow(
      expect.objectContaining({
        code: 'invalid_body',
        details: { issues: [{ path: 'name', message: expect.stringMatching(/NUL/) }] },
      }),
    );
  });
});

describe('parseDeadline', () => {
  it('refuses year 0 and instants outside years 1 to 9999', () => {
    expect(parseDeadline('0000-01-01', 'UTC')).toBeNull();
    expect(parseDeadline('0000-06-30T12:00:00Z', 'UTC')).toBeNull();
    expect(parseDeadline('0001-01-01T00:00:00+01:00', 'UTC')).toBeNull(); // year 0 in UTC
    expect(parseDeadline('0001-01-01', 'Asia/Tokyo')).not.toBeNull();
    expect(parseDeadline('9999-12-31', 'Pacific/Kiritimati')).not.toBeNull();
    expect(parseDeadline('2030-01-31', 'Europe/Paris')?.due_on).toBe('2030-01-31');
  });
});

/** Each decider refuses what the edge might miss: code invalid_body (deadlines: invalid_deadline). */
describe('the deciders refuse unstorable input', () => {
  const refusedWith = (code: string, decide: () => unknown) => {
    let error: unknown;
    try {
      decide();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(code);
  };

  it('client: NUL in name or a custom field key, a lone surrogate in a custom field value', () => {
    const command = (data: Partial<CreateClient['data']>): CreateClient => {
      const full = {
        client_id: id,
        team_id: id,
        name: 'Ada',
        email: 'ada@example.com',
        company: null,
        phone: null,
        notes: null,
        custom_fields: {},
        locale: 'en-US',
        date_format: 'MM/DD/YYYY',
        timezone: 'UTC',
        ...data,
      };
      return {
        type: 'CreateClient',
        data: full,
        sealed: { ...full, custom_fields: '{}' },
        metadata: { now },
      };
    };
    refusedWith('invalid_body', () =>
      clientDecider.decide(command({ name: 'A\u0000' }), { status: 'absent' }),
    );
    refusedWith('invalid_body', () =>
      clientDecider.decide(command({ custom_fields: { 'k\u0000': 'v' } }), { status: 'absent' }),
    );
    refusedWith('invalid_body', () =>
      clientDecider.decide(command({ custom_fields: { k: 'a\udc00b' } }), { status: 'absent' }),
    );
    expect(clientDecider.decide(command({ custom_fields: { k: '😀' } }), { status: 'absent' })).toHaveLength(
      1,
    );
  });

  it('team: int4 overflow of monthly_onboarding_limit and new_recipient_cap, NUL in a member name', () => {
    const team = teamDecider.decide(
      {
        type: 'CreateTeam',
        metadata: { now },
        data: {
          team_id: id,
          settings: {
            name: 'T',
            plan: 'pro',
            timezone: 'UTC',
            locale: 'en-US',
            date_format: 'MM/DD/YYYY',
            email_sender_name: null,
            sending_paused: false,
            payments_connected: false,
            monthly_onboarding_limit: null,
            unpaid: false,
            new_recipient_cap: null,
          },
        },
      },
      teamDecider.initialState(),
    );
    const state = {
      ...teamDecider.initialState(),
      team: { ...team[0]!.data, id, updated_at: now.toISOString() },
    } as never;
    const update = (changes: Record<string, unknown>) => () =>
      teamDecider.decide({ type: 'UpdateTeam', data: { changes }, metadata: { now } }, state);
    refusedWith('invalid_body', update({ monthly_onboarding_limit: 2147483648 }));
    refusedWith('invalid_body', update({ new_recipient_cap: 1e20 }));
    expect(update({ monthly_onboarding_limit: 2147483647 })()).toHaveLength(1);
    refusedWith('invalid_body', () =>
      teamDecider.decide(
        {
          type: 'AddMember',
          data: {
            member_id: id,
            name: 'N\u0000',
            email: 'n@example.com',
            role: 'member',
          },
          metadata: { now },
        },
        state,
      ),
    );
  });

  it('template: a sort_order beyond int4', () => {
    const content = (sortOrder: number) => ({
      name: 'T',
      description: null,
      vertical: null,
      settings: {},
      translations: null,
      steps: [
        {
          id,
          title: 'S',
          sort_order: sortOrder,
          is_optional: false,
          conditional_rules: null,
          translations: null,
          fields: [],
        },
      ],
    });
    const create = (sortOrder: number) => () =>
      templateDecider.decide(
        {
          type: 'CreateTemplate',
          data: { template_id: 'tpl', team_id: id, content: content(sortOrder) },
          metadata: { now },
        },
        { status: 'none' },
      );
    refusedWith('invalid_body', create(1e20));
    expect(create(3)()).toHaveLength(1);
  });

  it('onboarding: an answer or a signer name as entered, a deadline in year 0', () => {
    const decide = (command: OnboardingCommand) => () =>
      onboardingDecider.decide(command, onboardingDecider.initialState());
    refusedWith(
      'invalid_body',
      decide({
        type: 'SaveAnswer',
        data: { token_hash: 'h', field_id: 'f', response_id: id, value: 'sealed', entered_value: 'x\u0000y' },
        metadata: { now },
      }),
    );
    refusedWith(
      'invalid_body',
      decide({
        type: 'SignField',
        data: {
          field_id: 'f',
          signature_id: id,
          signer_name: 'sealed',
          signer_email: 'sealed',
          signer: { role: 'client', token_hash: 'h' },
          entered: { signer_name: 'Ada\u0000', signer_email: 'ada@example.com' },
        },
        metadata: { now },
      }),
    );
    refusedWith(
      'invalid_deadline',
      decide({
        type: 'UpdateOnboarding',
        data: {
          team_id: id,
          due: { due_date: '0000-12-31T23:59:59.999+00:00', due_on: '0000-12-31', due_timezone: 'UTC' },
        },
        metadata: { now },
      }),
    );
  });

  it('API key, automation rule and hook subscription: a NUL anywhere in the command', () => {
    refusedWith('invalid_body', () =>
      apiKeyDecider.decide(
        {
          type: 'CreateApiKey',
          data: {
            api_key_id: id,
            team_id: id,
            name: 'k\u0000',
            scopes: [],
            key_hash: 'h',
            expires_at: null,
          },
          metadata: { now },
        },
        { status: 'none' },
      ),
    );
    refusedWith('invalid_body', () =>
      automationRuleDecider.decide(
        {
          type: 'CreateAutomationRule',
          data: {
            rule_id: id,
            team_id: id,
            name: 'R',
            trigger: 'onboarding.completed',
            action: { type: 'send_email', subject: 'Hi\ud800', body: 'b' },
            enabled: true,
            plan_has_automations: true,
          },
          metadata: { now },
        },
        { status: 'absent' },
      ),
    );
    refusedWith('invalid_body', () =>
      hookSubscriptionDecider.decide(
        {
          type: 'CreateHookSubscription',
          data: {
            subscription_id: id,
            team_id: id,
            event: 'onboarding.completed',
            target_url: 'https://hooks.example.com/\u0000',
            api_key_id: null,
          },
          metadata: { now },
        },
        { status: 'absent' },
      ),
    );
  });
});
