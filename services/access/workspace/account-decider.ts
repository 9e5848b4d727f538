import { DomainError, type Decider } from '../../../shared/commands/decider.ts';
import type { AccountEvent } from './account-events.ts';

export interface AccountState {
  opened: boolean;
  member_id: string | null;
  team_id: string | null;
  totp: 'off' | 'pending' | 'on';
  /** A self-serve owner's address: unasked (invited members, operator teams), pending, verified. */
  email?: 'pending' | 'verified';
}

/** Every command carries the service clock's time in `metadata.now`. */
export type AccountCommand = (
  | { type: 'OpenAccount'; data: { member_id: string; team_id: string } }
  /** recovery_codes_left: a recovery code stood in for the two-factor code (the unused ones left). */
  | { type: 'SignIn'; data: { second_factor: boolean; recovery_codes_left?: number } }
  | { type: 'SignOut'; data: { scope: 'current' | 'everywhere' | 'password_reset' | 'other_sessions' } }
  | { type: 'LockSignIn'; data: { locked_until: string } }
  | { type: 'ChangePassword'; data: { reason: 'reset' | 'change' } }
  | { type: 'Reauthenticate'; data: { method: 'password' | 'totp' } }
  | { type: 'StartTotp'; data: Record<string, never> }
  /** recovery_codes: how many one-time codes the route hands out; every other session ends. */
  | { type: 'EnableTotp'; data: { recovery_codes: number } }
  | { type: 'RegenerateRecoveryCodes'; data: { recovery_codes: number } }
  | { type: 'DisableTotp'; data: Record<string, never> }
  | { type: 'SendEmailVerification'; data: Record<string, never> }
  | { type: 'VerifyEmail'; data: Record<string, never> }
) & { metadata: { now: Date } };

const initialState = (): AccountState => ({ opened: false, member_id: null, team_id: null, totp: 'off' });

const notFound = () => new DomainError('account_not_found', 'No workspace account for this member');

/**
 * The account's rules: it opens once; two-factor goes off -> pending (started) -> on
 * (confirmed) and back off; every other command only records a fact of an open account.
 * Secrets and their checks (password, TOTP code, session) are the routes' work.
 */
function decide(command: AccountCommand, state: AccountState): AccountEvent[] {
  const at = command.metadata.now.toISOString();
  if (command.type === 'OpenAccount') {
    if (state.opened) throw new DomainError('account_exists', 'This member already has an account');
    return [{ type: 'account.opened', data: { ...command.data, at } }];
  }
  if (!state.opened || !state.member_id || !state.team_id) throw notFound();
  const ids = { member_id: state.member_id, team_id: state.team_id, at };
  switch (command.type) {
    case 'SignIn': {
      const signedIn: AccountEvent = {
        type: 'account.signed_in',
        data: { ...ids, second_factor: command.data.second_factor },
      };
      const left = command.data.recovery_codes_left;
      if (left === undefined) return [signedIn];
      if (state.totp !== 'on') throw new DomainError('totp_not_on', 'Two-factor sign-in is not on');
      return [{ type: 'account.recovery_code_used', data: { ...ids, codes_left: left } }, signedIn];
    }
    case 'SignOut':
      return [{ type: 'account.signed_out', data: { ...ids, scope: command.data.scope } }];
    case 'LockSignIn':
      return [{ type: 'account.sign_in_locked', data: { ...ids, locked_until: command.data.locked_until } }];
    case 'ChangePassword':
      return [{ type: 'account.password_changed', data: { ...ids, reason: command.data.reason } }];
    case 'Reauthenticate':
      return [{ type: 'account.reauthenticated', data: { ...ids, method: command.data.method } }];
    case 'StartTotp':
      if (state.totp === 'on') {
        throw new DomainError('totp_already_on', 'Two-factor sign-in is already on; turn it off first');
      }
      return [{ type: 'account.totp_setup_started', data: ids }];
    case 'EnableTotp':
      if (state.totp !== 'pending') {
        throw new DomainError('totp_not_started', 'Start the two-factor setup first');
      }
      return [
        { type: 'account.totp_enabled', data: ids },
        { type: 'account.recovery_codes_generated', data: { ...ids, count: command.data.recovery_codes } },
        { type: 'account.signed_out', data: { ...ids, scope: 'other_sessions' } },
      ];
    case 'RegenerateRecoveryCodes':
      if (state.totp !== 'on') throw new DomainError('totp_not_on', 'Two-factor sign-in is not on');
      return [
        { type: 'account.recovery_codes_generated', data: { ...ids, count: command.data.recovery_codes } },
      ];
    case 'DisableTotp':
      if (state.totp !== 'on') throw new DomainError('totp_not_on', 'Two-factor sign-in is not on');
      return [{ type: 'account.totp_disabled', data: ids }];
    case 'SendEmailVerification':
      if (state.email === 'verified') {
        throw new DomainError('email_already_verified', 'Your email address is already verified');
      }
      return [{ type: 'account.email_verification_sent', data: ids }];
    case 'VerifyEmail':
      if (state.email !== 'pending') {
        throw new DomainError('email_already_verified', 'Your email address is already verified');
      }
      return [{ type: 'account.email_verified', data: ids }];
    default: {
      const unknown: never = command;
      throw new Error(`Unknown account command ${JSON.stringify(unknown)}`);
    }
  }
}

function evolve(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'account.opened':
      return { ...state, opened: true, member_id: event.data.member_id, team_id: event.data.team_id };
    case 'account.totp_setup_started':
      return { ...state, totp: 'pending' };
    case 'account.totp_enabled':
      return { ...state, totp: 'on' };
    case 'account.totp_disabled':
      return { ...state, totp: 'off' };
    case 'account.email_verification_sent':
      return { ...state, email: 'pending' };
    case 'account.email_verified':
      return { ...state, email: 'verified' };
    default:
      return state;
  }
}

export const accountDecider: Decider<AccountState, AccountCommand, AccountEvent> = {
  initialState,
  evolve,
  decide,
};
