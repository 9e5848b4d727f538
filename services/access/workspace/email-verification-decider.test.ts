import { describe, expect, it } from 'vitest';
import { DomainError, fold } from '../../../shared/commands/decider.ts';
import { accountDecider, type AccountCommand } from './account-decider.ts';
import type { AccountEvent } from './account-events.ts';

const ids = {
  member_id: '22222222-2222-4222-8222-222222222222',
  team_id: '11111111-1111-4111-8111-111111111111',
  at: '2030-01-10T12:00:00.000Z',
};
const metadata = { now: new Date(ids.at) };
const opened: AccountEvent = { type: 'account.opened', data: ids };
const sent: AccountEvent = { type: 'account.email_verification_sent', data: ids };
const verified: AccountEvent = { type: 'account.email_verified', data: ids };

const decide = (events: AccountEvent[], type: 'SendEmailVerification' | 'VerifyEmail') =>
  accountDecider.decide({ type, data: {}, metadata } as AccountCommand, fold(accountDecider, events));

function refusal(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).code;
  }
  return undefined;
}

describe('account decider: email verification of a self-serve owner', () => {
  it('sends a link (again) until verified, verifies once', () => {
    expect(decide([opened], 'SendEmailVerification')).toEqual([sent]);
    expect(decide([opened, sent], 'SendEmailVerification')).toEqual([sent]);
    expect(decide([opened, sent], 'VerifyEmail')).toEqual([verified]);
    expect(decide([opened, sent, sent], 'VerifyEmail')).toEqual([verified]);
  });

  it('refuses a verification nobody asked for, a second one, and a link after it', () => {
    expect(refusal(() => decide([opened], 'VerifyEmail'))).toBe('email_already_verified');
    expect(refusal(() => decide([opened, sent, verified], 'VerifyEmail'))).toBe('email_already_verified');
    expect(refusal(() => decide([opened, sent, verified], 'SendEmailVerification'))).toBe(
      'email_already_verified',
    );
    expect(refusal(() => decide([], 'SendEmailVerification'))).toBe('account_not_found');
  });
});
