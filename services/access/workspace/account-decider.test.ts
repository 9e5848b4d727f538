import { describe, it } from 'vitest';
import { accountDecider, type AccountCommand } from './account-decider.ts';
import type { AccountEvent } from './account-events.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';

const memberId = '22222222-2222-4222-8222-222222222222';
const teamId = '11111111-1111-4111-8111-111111111111';
const now = '2030-01-10T12:00:00.000Z';
const metadata = { now: new Date(now) };
const ids = { member_id: memberId, team_id: teamId, at: now };

const opened: AccountEvent = { type: 'account.opened', data: ids };
const started: AccountEvent = { type: 'account.totp_setup_started', data: ids };
const enabled: AccountEvent = { type: 'account.totp_enabled', data: ids };
const disabled: AccountEvent = { type: 'account.totp_disabled', data: ids };

type Command = AccountCommand extends infer C
  ? C extends AccountCommand
    ? Omit<C, 'metadata'>
    : never
  : never;

/** Given events, when a command (at `now`): the events it decides (or the domain error it throws). */
const given = DeciderSpecification.for({
  ...accountDecider,
  decide: (command: Command, state) =>
    accountDecider.decide({ ...command, metadata } as AccountCommand, state),
});

describe('account decider', () => {
  it('opens an account once', () => {
    given([])
      .when({ type: 'OpenAccount', data: { member_id: memberId, team_id: teamId } })
      .then([opened]);
    given([opened])
      .when({ type: 'OpenAccount', data: { member_id: memberId, team_id: teamId } })
      .thenThrows('account_exists');
  });

  it('refuses every other command before the account is open', () => {
    const commands: Command[] = [
      { type: 'SignIn', data: { second_factor: false } },
      { type: 'SignOut', data: { scope: 'current' } },
      { type: 'LockSignIn', data: { locked_until: now } },
      { type: 'ChangePassword', data: { reason: 'reset' } },
      { type: 'Reauthenticate', data: { method: 'password' } },
      { type: 'StartTotp', data: {} },
      { type: 'EnableTotp', data: { recovery_codes: 10 } },
      { type: 'DisableTotp', data: {} },
      { type: 'RegenerateRecoveryCodes', data: { recovery_codes: 10 } },
    ];
    for (const command of commands) given([]).when(command).thenThrows('account_not_found');
  });

  it('records the facts of an open account with its ids and the service time', () => {
    given([opened])
      .when({ type: 'SignIn', data: { second_factor: true } })
      .then([{ type: 'account.signed_in', data: { ...ids, second_factor: true } }]);
    given([opened])
      .when({ type: 'SignOut', data: { scope: 'everywhere' } })
      .then([{ type: 'account.signed_out', data: { ...ids, scope: 'everywhere' } }]);
    given([opened])
      .when({ type: 'LockSignIn', data: { locked_until: '2030-01-10T12:15:00.000Z' } })
      .then([{ type: 'account.sign_in_locked', data: { ...ids, locked_until: '2030-01-10T12:15:00.000Z' } }]);
    given([opened])
      .when({ type: 'ChangePassword', data: { reason: 'reset' } })
      .then([{ type: 'account.password_changed', data: { ...ids, reason: 'reset' } }]);
    given([opened])
      .when({ type: 'Reauthenticate', data: { method: 'totp' } })
      .then([{ type: 'account.reauthenticated', data: { ...ids, method: 'totp' } }]);
  });

  describe('two-factor sign-in', () => {
    it('starts the setup when off, and again while pending (a new secret)', () => {
      given([opened]).when({ type: 'StartTotp', data: {} }).then([started]);
      given([opened, started]).when({ type: 'StartTotp', data: {} }).then([started]);
    });

    it('refuses to start the setup while it is on', () => {
      given([opened, started, enabled]).when({ type: 'StartTotp', data: {} }).thenThrows('totp_already_on');
    });

    const enable = { type: 'EnableTotp', data: { recovery_codes: 10 } } as const;
    const codesGenerated = { type: 'account.recovery_codes_generated', data: { ...ids, count: 10 } } as const;

    it('turns on only a started setup, with recovery codes, ending every other session', () => {
      given([opened, started])
        .when(enable)
        .then([
          enabled,
          codesGenerated,
          { type: 'account.signed_out', data: { ...ids, scope: 'other_sessions' } },
        ]);
      given([opened]).when(enable).thenThrows('totp_not_started');
      given([opened, started, enabled]).when(enable).thenThrows('totp_not_started');
    });

    it('regenerates recovery codes only while two-factor is on', () => {
      const regenerate = { type: 'RegenerateRecoveryCodes', data: { recovery_codes: 10 } } as const;
      given([opened, started, enabled]).when(regenerate).then([codesGenerated]);
      given([opened, started]).when(regenerate).thenThrows('totp_not_on');
      given([opened, started, enabled, disabled]).when(regenerate).thenThrows('totp_not_on');
    });

    it('records a sign-in with a recovery code, and the codes left, only while two-factor is on', () => {
      const withCode = { type: 'SignIn', data: { second_factor: true, recovery_codes_left: 9 } } as const;
      given([opened, started, enabled])
        .when(withCode)
        .then([
          { type: 'account.recovery_code_used', data: { ...ids, codes_left: 9 } },
          { type: 'account.signed_in', data: { ...ids, second_factor: true } },
        ]);
      given([opened]).when(withCode).thenThrows('totp_not_on');
    });

    it('turns off only when on', () => {
      given([opened, started, enabled]).when({ type: 'DisableTotp', data: {} }).then([disabled]);
      given([opened]).when({ type: 'DisableTotp', data: {} }).thenThrows('totp_not_on');
      given([opened, started]).when({ type: 'DisableTotp', data: {} }).thenThrows('totp_not_on');
      given([opened, started, enabled, disabled])
        .when({ type: 'DisableTotp', data: {} })
        .thenThrows('totp_not_on');
    });

    it('starts again after being turned off', () => {
      given([opened, started, enabled, disabled]).when({ type: 'StartTotp', data: {} }).then([started]);
    });
  });
});
