import { describe, expect, it } from 'vitest';
import type { Onboarding } from '../decider/index.ts';
import { linkState, type LinkFacts } from './portal-face.ts';

const TOKEN_HASH = 'a'.repeat(64);
const NOW = new Date('2030-01-10T12:00:00Z');

const onboarding = (changes: Partial<Onboarding> = {}): Onboarding =>
  ({
    status: 'sent',
    id: 'o1',
    team_id: 't1',
    client_id: 'c1',
    expires_at: null,
    archived_at: null,
    client_erased_at: null,
    token_hash: TOKEN_HASH,
    pin: null,
    reviews: {},
    ...changes,
  }) as Onboarding;

const facts = (changes: Partial<LinkFacts> = {}): LinkFacts => ({
  state: onboarding(),
  tokenHash: TOKEN_HASH,
  newest: true,
  clientErased: false,
  pinLockedFor: null,
  now: NOW,
  ...changes,
});

const stateOf = (changes: Partial<LinkFacts>) => linkState(facts(changes)).state;
const pin = { salt: 's', hash: 'h' } as unknown as Onboarding['pin'];

describe('linkState', () => {
  it('open without a PIN, pin_required with one, pin_locked after too many wrong ones', () => {
    expect(linkState(facts())).toEqual({ state: 'open', retry_after_seconds: null });
    expect(linkState(facts({ state: onboarding({ pin }) }))).toEqual({
      state: 'pin_required',
      retry_after_seconds: null,
    });
    expect(linkState(facts({ state: onboarding({ pin }), pinLockedFor: 120 }))).toEqual({
      state: 'pin_locked',
      retry_after_seconds: 120,
    });
    // The lockout only matters for a link with a PIN.
    expect(stateOf({ pinLockedFor: 120 })).toBe('open');
    expect(stateOf({ state: onboarding({ status: 'in_progress' }) })).toBe('open');
    expect(stateOf({ state: onboarding({ status: 'draft' }) })).toBe('open');
  });

  it('the end of the onboarding', () => {
    expect(stateOf({ state: onboarding({ status: 'completed' }) })).toBe('completed');
    expect(stateOf({ state: onboarding({ status: 'cancelled', token_hash: null }) })).toBe('cancelled');
    expect(stateOf({ state: onboarding({ status: 'expired' }) })).toBe('expired');
    expect(stateOf({ state: onboarding({ expires_at: '2030-01-10T12:00:00Z' }) })).toBe('expired');
    expect(stateOf({ state: onboarding({ expires_at: '2030-01-10T12:00:01Z' }) })).toBe('open');
  });

  it('inactive: unknown, replaced, archived, erased or deactivated', () => {
    expect(stateOf({ state: { status: 'absent' } })).toBe('inactive');
    expect(stateOf({ newest: false })).toBe('inactive');
    expect(stateOf({ newest: false, state: onboarding({ status: 'completed' }) })).toBe('inactive');
    expect(stateOf({ state: onboarding({ archived_at: '2030-01-01T00:00:00Z' }) })).toBe('inactive');
    expect(stateOf({ state: onboarding({ client_erased_at: '2030-01-01T00:00:00Z' }) })).toBe('inactive');
    expect(stateOf({ clientErased: true, state: onboarding({ status: 'completed' }) })).toBe('inactive');
    expect(stateOf({ state: onboarding({ token_hash: 'b'.repeat(64) }) })).toBe('inactive');
  });

  it('a completed onboarding is completed, unless the team sent answers back: then it is open for them', () => {
    expect(stateOf({ state: onboarding({ status: 'completed' }) })).toBe('completed');
    const approved = { f1: { status: 'approved' as const, reason: null } };
    expect(stateOf({ state: onboarding({ status: 'completed', reviews: approved }) })).toBe('completed');
    const rejected = { f1: { status: 'rejected' as const, reason: 'Blurred' } };
    expect(stateOf({ state: onboarding({ status: 'completed', reviews: rejected }) })).toBe('open');
    expect(stateOf({ state: onboarding({ status: 'completed', reviews: rejected, pin }) })).toBe(
      'pin_required',
    );
    // The answers sent back can be fixed after expires_at too.
    const past = { status: 'completed' as const, reviews: rejected, expires_at: '2030-01-10T11:00:00Z' };
    expect(stateOf({ state: onboarding(past) })).toBe('open');
  });
});
