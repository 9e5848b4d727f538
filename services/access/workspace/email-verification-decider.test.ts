import { describe, it } from 'vitest';
import { accountDecider, type AccountCommand } from './account-decider.ts';
import type { AccountEvent } from './account-events.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';

const ids = {
  member_id: '22222222-2222-4222-8222-222222222222',
  team_id: '11111111-1111-4111-8111-111111111111',
  at: '2030-01-10T12:00:00.000Z',
};
const metadata = { now: new Date(ids.at) };
const opened: AccountEvent = { type: 'account.opened', data: ids };
const sent: AccountEvent = { type: 'account.email_verification_sent', data: ids };
const verified: AccountEvent = { type: 'account.email_verified', data: ids };

const command = (type: 'SendEmailVerification' | 'VerifyEmail') =>
  ({ type, data: {}, metadata }) as AccountCommand;
const given = DeciderSpecification.for(accountDecider);

describe('account decider: email verification of a self-serve owner', () => {
  it('sends a link (again) until verified, verifies once', () => {
    given([opened]).when(command('SendEmailVerification')).then([sent]);
    given([opened, sent]).when(command('SendEmailVerification')).then([sent]);
    given([opened, sent]).when(command('VerifyEmail')).then([verified]);
    given([opened, sent, sent]).when(command('VerifyEmail')).then([verified]);
  });

  it('refuses a verification nobody asked for, a second one, and a link after it', () => {
    given([opened]).when(command('VerifyEmail')).thenThrows('email_already_verified');
    given([opened, sent, verified]).when(command('VerifyEmail')).thenThrows('email_already_verified');
    given([opened, sent, verified])
      .when(command('SendEmailVerification'))
      .thenThrows('email_already_verified');
    given([]).when(command('SendEmailVerification')).thenThrows('account_not_found');
  });
});
