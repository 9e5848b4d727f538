import fc from 'fast-check';
import { expect, it } from 'vitest';
import { DomainError } from '../../../shared/commands/decider.ts';
import { onboardingDecider, type OnboardingCommand, type OnboardingState } from './index.ts';
import { CLOSED_STATUSES, ONBOARDING_STATUSES } from '../onboarding-events.ts';
import { ACTIVE_CLIENT_WINDOW_MS } from '../send-policy.ts';
import {
  CLIENT,
  MEMBER,
  ONBOARDING,
  OTHER_TEAM,
  T0,
  TEAM,
  TEMPLATE,
  facts,
  field,
  snapshot,
} from './test-fixtures.ts';

/**
 * Random command sequences against the onboarding decider: whatever the order, the time
 * and the facts, no forbidden state or transition is ever reached.
 */

type Status = OnboardingState['status'];

/** (command, from, to) for every status change the decider may make; everything else is forbidden. */
const ALLOWED_MOVES = new Set([
  'CreateOnboarding:absent->draft',
  'UpdateOnboarding:draft->cancelled',
  'UpdateOnboarding:sent->cancelled',
  'UpdateOnboarding:in_progress->cancelled',
  'UpdateOnboarding:sent->in_progress',
  'SendOnboarding:draft->sent',
  'SendOnboarding:sent->sent',
  'SendOnboarding:in_progress->in_progress',
  'OpenLink:sent->in_progress',
  'SubmitStep:in_progress->completed',
  'ExpireOnboarding:sent->expired',
  'ExpireOnboarding:in_progress->expired',
]);

const KNOWN_CODES = new Set([
  'onboarding_exists',
  'target_unavailable',
  'invalid_state',
  'template_missing',
  'client_scope_missing',
  'client_erasure_pending',
  'gallery_template_copy_required',
  'invalid_assignee',
  'invalid_payment',
  'payment_plan_required',
  'payment_not_connected',
  'agreement_text_required',
  'sending_paused',
  'recipient_cap_reached',
  'limit_reached',
  'requires_force',
  'link_inactive',
  'field_not_found',
  'step_not_found',
  'file_not_found',
  'payload_too_large',
  'invalid_body',
  'answer_locked',
]);

/** Portal commands mostly carry the link's active token ('active' is replaced when run). */
const token = fc.constantFrom('active', 'active', 't0', 't1', 't2');
const newToken = fc.constantFrom('t0', 't1', 't2', 't3');

/** A command without its time; the time is laid down by the sequence. */
type Draft = Omit<OnboardingCommand, 'metadata'>;

const templates = fc.constantFrom(
  snapshot(),
  snapshot({ fields2: [field('pay', 'payment', { config: { amount_cents: 5000 } })] }),
  snapshot({ fields2: [field('pay', 'payment', { config: { amount_cents: -1 } })] }),
  snapshot({ fields1: [field('sig', 'signature', { config: { is_sample_text: true } })] }),
  snapshot({ fields1: [field('f1', 'short_text', { is_required: false })] }),
  snapshot({ fields2: [field('doc', 'file_upload', { is_required: false, config: { max_files: 2 } })] }),
);

const sendFacts = fc.record({
  client: fc.constantFrom('active', 'active', 'active', 'erased', 'missing'),
  plan_can_collect_payments: fc.boolean(),
  payments_connected: fc.boolean(),
  sending_paused: fc.boolean(),
  unpaid: fc.boolean(),
  new_recipient: fc.boolean(),
  new_recipients_last_24h: fc.nat(12),
  new_recipient_cap: fc.constant(10),
  monthly_limit: fc.constantFrom(0, 1, 5, 'unlimited' as const),
  monthly_used: fc.nat(6),
});

const command: fc.Arbitrary<Draft> = fc.oneof(
  {
    arbitrary: fc.record({
      type: fc.constant('CreateOnboarding' as const),
      data: fc.record({
        onboarding_id: fc.constant(ONBOARDING),
        team_id: fc.constant(TEAM),
        client_id: fc.constant(CLIENT),
        template_id: fc.constant(TEMPLATE),
        template: fc.option(
          fc.record({ source: fc.constantFrom('team' as const, 'gallery' as const), snapshot: templates }),
          {
            freq: 8,
          },
        ),
        client: fc.constantFrom('active' as const, 'active' as const, 'erased' as const, 'missing' as const),
        token_hash: fc.constant('t0'),
        due: fc.option(
          fc.constant({
            due_date: new Date(T0.getTime() + 3_600_000).toISOString(),
            due_on: null,
            due_timezone: null,
          }),
        ),
        expires_at: fc.option(fc.constant(new Date(T0.getTime() + 4 * 3_600_000).toISOString()), { freq: 3 }),
      }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      type: fc.constant('UpdateOnboarding' as const),
      data: fc.record(
        {
          team_id: fc.constantFrom(TEAM, TEAM, TEAM, OTHER_TEAM),
          status: fc.constantFrom('cancelled' as const, 'in_progress' as const),
          due: fc.option(
            fc.constant({
              due_date: new Date(T0.getTime() + 7_200_000).toISOString(),
              due_on: null,
              due_timezone: null,
            }),
          ),
          assignee: fc.record({ member_id: fc.option(fc.constant(MEMBER)), is_current_member: fc.boolean() }),
        },
        { requiredKeys: ['team_id'] },
      ),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      type: fc.constant('SendOnboarding' as const),
      data: fc.record({
        team_id: fc.constantFrom(TEAM, TEAM, TEAM, OTHER_TEAM),
        token_hash: newToken,
        pin: fc.option(fc.constant({ salt: 's', hash: 'h' })),
        force: fc.boolean(),
        facts: fc.oneof(
          { arbitrary: fc.constant(facts()), weight: 2 },
          { arbitrary: sendFacts.map((partial) => facts(partial)), weight: 1 },
        ),
      }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ type: fc.constant('OpenLink' as const), data: fc.record({ token_hash: token }) }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      type: fc.constant('SaveAnswer' as const),
      data: fc.record({
        token_hash: token,
        field_id: fc.constantFrom('f1', 'sig', 'f1', 'sig', 'f2', 'pay', 'nope'),
        response_id: fc.uuid(),
        value: fc.oneof(fc.string(), fc.constantFrom('Ada', 'x')),
      }),
    }),
    weight: 5,
  },
  {
    arbitrary: fc.record({
      type: fc.constant('SubmitStep' as const),
      data: fc.record({ token_hash: token, step_id: fc.constantFrom('s1', 's2', 'nope') }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      type: fc.constant('SignField' as const),
      data: fc.record({
        field_id: fc.constantFrom('sig', 'f1'),
        signature_id: fc.uuid(),
        signer_name: fc.constant('Ada'),
        signer_email: fc.constant('ada@example.com'),
        signer: fc.oneof(
          fc.record({ role: fc.constant('client' as const), token_hash: token }),
          fc.record({ role: fc.constant('team_member' as const), member_id: fc.constant(MEMBER) }),
        ),
      }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      type: fc.constant('UploadFile' as const),
      data: fc.record({
        token_hash: token,
        field_id: fc.constantFrom('f1', 'f2', 'doc'),
        file_id: fc.constantFrom('file-1', 'file-2', 'file-3'),
        file_name: fc.constant('a.pdf'),
        content_type: fc.constantFrom('application/pdf', 'text/plain'),
        size_bytes: fc.nat(),
      }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      type: fc.constant('RemoveFile' as const),
      data: fc.record({ token_hash: token, file_id: fc.constantFrom('file-1', 'file-2', 'nope') }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      type: fc.constant('RecordPayment' as const),
      data: fc.record({
        field_id: fc.constantFrom('pay', 'f1'),
        payment_id: fc.uuid(),
        payment_intent_id: fc.constantFrom('pi_1', 'pi_2'),
        amount_cents: fc.constant(5000),
        subscription_id: fc.constant(null),
        interval: fc.constant(null),
      }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.constantFrom<Draft>(
      { type: 'ArchiveOnboarding', data: {} },
      { type: 'EraseClient', data: {} },
      { type: 'MarkOverdue', data: {} },
      { type: 'ExpireOnboarding', data: {} },
    ),
    weight: 1,
  },
) as fc.Arbitrary<Draft>;

/** Commands with their minute offsets: time only moves forward. */
const sequence = fc.array(fc.tuple(command, fc.nat(90)), { minLength: 1, maxLength: 60, size: 'max' });

interface Trace {
  counted: number;
  archived: boolean;
  closed: boolean;
}

/** Replaces the 'active' placeholder with the state's active token. */
function withActiveToken(command: OnboardingCommand, state: OnboardingState): OnboardingCommand {
  const active = state.status === 'absent' ? 'none' : (state.token_hash ?? 'none');
  const data = command.data as Record<string, unknown>;
  if (data['token_hash'] === 'active')
    return { ...command, data: { ...data, token_hash: active } } as OnboardingCommand;
  const signer = data['signer'] as { token_hash?: string } | undefined;
  if (signer?.token_hash === 'active') {
    return { ...command, data: { ...data, signer: { ...signer, token_hash: active } } } as OnboardingCommand;
  }
  return command;
}

function step(state: OnboardingState, original: OnboardingCommand, trace: Trace): OnboardingState {
  const command = withActiveToken(original, state);
  let events;
  try {
    events = onboardingDecider.decide(command, state);
  } catch (error) {
    // A refusal is always a typed DomainError with a known code, and changes nothing.
    expect(error).toBeInstanceOf(DomainError);
    const code = (error as DomainError).code;
    expect(KNOWN_CODES.has(code), code).toBe(true);
    if (state.status !== 'absent' && state.archived_at !== null) {
      if (command.type === 'UpdateOnboarding' || command.type === 'SendOnboarding') {
        expect((error as DomainError).code).toBe('target_unavailable');
      }
    }
    return state;
  }
  const next = events.reduce(onboardingDecider.evolve, state);
  const from: Status = state.status;
  const to: Status = next.status;

  const move = `${command.type}:${from}->${to}`;
  if (events.length > 0 && (from !== to || command.type === 'SendOnboarding')) {
    expect(ALLOWED_MOVES.has(move), move).toBe(true);
  }
  expect(['absent', ...ONBOARDING_STATUSES]).toContain(to);
  // Closed is final; archived onboardings never move.
  if (trace.closed) expect(to).toBe(from);
  if (trace.archived) expect(to).toBe(from);

  for (const event of events) {
    if (event.type === 'onboarding.sent') {
      if (state.status === 'absent') throw new Error('sent before created');
      expect(CLOSED_STATUSES.has(state.status as never)).toBe(false);
      expect(state.archived_at).toBeNull();
      if (command.type !== 'SendOnboarding') throw new Error('sent by another command');
      const { facts: f, force } = command.data;
      if (event.data.counted) {
        trace.counted += 1;
        if (f.monthly_limit !== 'unlimited') expect(f.monthly_used).toBeLessThan(f.monthly_limit);
      }
      expect(f.sending_paused).toBe(false);
      if (state.status === 'in_progress' && state.last_answer_saved_at !== null && !force) {
        const since = command.metadata.now.getTime() - Date.parse(state.last_answer_saved_at);
        expect(since).toBeGreaterThanOrEqual(ACTIVE_CLIENT_WINDOW_MS);
      }
      expect(next.status !== 'absent' && next.token_hash).toBe(command.data.token_hash);
    }
    if (event.type === 'onboarding.started') {
      expect(['sent', 'in_progress']).toContain(from);
    }
  }
  // Counted at most once, and a sent onboarding has been counted.
  expect(trace.counted).toBeLessThanOrEqual(1);
  if (next.status !== 'absent') {
    if (next.send_count > 0) expect(next.counted).toBe(true);
    expect(next.progress_pct).toBeGreaterThanOrEqual(0);
    expect(next.progress_pct).toBeLessThanOrEqual(100);
    expect(next.progress_pct === 100).toBe(next.status === 'completed');
    if (next.status === 'cancelled') expect(next.token_hash).toBeNull();
    // A file field is answered exactly while it holds a file.
    const withFiles = new Set(Object.values(next.files).map((file) => file.field_id));
    for (const fieldId of ['doc', 'f1', 'f2']) {
      expect(next.fulfilled_fields.includes(fieldId), fieldId).toBe(withFiles.has(fieldId));
    }
    trace.archived = next.archived_at !== null;
    trace.closed = CLOSED_STATUSES.has(next.status);
  }
  return next;
}

it('random command sequences never reach a forbidden state or transition', () => {
  fc.assert(
    fc.property(sequence, (commands) => {
      let state = onboardingDecider.initialState();
      let minutes = 0;
      const trace: Trace = { counted: 0, archived: false, closed: false };
      for (const [draft, delta] of commands) {
        minutes += delta > 86 ? 30 : delta % 4;
        const now = new Date(T0.getTime() + minutes * 60_000);
        state = step(state, { ...draft, metadata: { now } } as OnboardingCommand, trace);
      }
    }),
    { numRuns: 300 },
  );
});

it('sequences that start with a valid create explore the whole lifecycle', () => {
  const created = (expiresInMinutes: number): Draft => ({
    type: 'CreateOnboarding',
    data: {
      onboarding_id: ONBOARDING,
      team_id: TEAM,
      client_id: CLIENT,
      template_id: TEMPLATE,
      template: { source: 'team', snapshot: snapshot() },
      client: 'active',
      token_hash: 't0',
      due: null,
      expires_at: new Date(T0.getTime() + expiresInMinutes * 60_000).toISOString(),
    },
  });
  const reached = new Set<string>();
  fc.assert(
    fc.property(fc.integer({ min: 15, max: 600 }), sequence, (expiresIn, commands) => {
      let state = onboardingDecider.initialState();
      let minutes = 0;
      const trace: Trace = { counted: 0, archived: false, closed: false };
      for (const [draft, delta] of [[created(expiresIn), 0] as const, ...commands]) {
        minutes += delta > 86 ? 30 : delta % 4;
        const now = new Date(T0.getTime() + minutes * 60_000);
        state = step(state, { ...draft, metadata: { now } } as OnboardingCommand, trace);
        reached.add(state.status);
      }
    }),
    { numRuns: 500 },
  );
  // The random walk does reach every status, so the invariants above were exercised.
  expect([...reached].sort()).toEqual([...ONBOARDING_STATUSES].sort());
});
