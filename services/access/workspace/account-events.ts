import type { DomainEvent } from '../../../shared/commands/decider.ts';

/**
 * Stream of one member's workspace account: `member_account-<member_id>`. Its events carry
 * ids and facts only: the password hash, the TOTP secret and the sessions live in the
 * operational tables of infra/migrations/084_workspace_accounts.sql, written in the same
 * transaction.
 */
export const accountStreamId = (memberId: string) => `member_account-${memberId}`;

type AccountFact<Type extends string, Extra = object> = DomainEvent<
  Type,
  { member_id: string; team_id: string; at: string } & Extra
>;

export type AccountOpened = AccountFact<'account.opened'>;
export type SignedIn = AccountFact<'account.signed_in', { second_factor: boolean }>;
export type SignedOut = AccountFact<
  'account.signed_out',
  { scope: 'current' | 'everywhere' | 'password_reset' | 'other_sessions' }
>;
export type SignInLocked = AccountFact<'account.sign_in_locked', { locked_until: string }>;
export type PasswordChanged = AccountFact<'account.password_changed', { reason: 'reset' | 'change' }>;
export type Reauthenticated = AccountFact<'account.reauthenticated', { method: 'password' | 'totp' }>;
export type TotpSetupStarted = AccountFact<'account.totp_setup_started'>;
export type TotpEnabled = AccountFact<'account.totp_enabled'>;
export type TotpDisabled = AccountFact<'account.totp_disabled'>;
/** New one-time recovery codes replaced any older ones (two-factor turned on, or regenerated). */
export type RecoveryCodesGenerated = AccountFact<'account.recovery_codes_generated', { count: number }>;
/** A recovery code stood in for a two-factor code at sign-in; codes_left: the unused ones. */
export type RecoveryCodeUsed = AccountFact<'account.recovery_code_used', { codes_left: number }>;
/** A self-serve owner was emailed a link to verify their address (at sign-up, or a resend). */
export type EmailVerificationSent = AccountFact<'account.email_verification_sent'>;
/** The owner followed the link: their team may send (./email-verification.ts). */
export type EmailVerified = AccountFact<'account.email_verified'>;

export type AccountEvent =
  | AccountOpened
  | SignedIn
  | SignedOut
  | SignInLocked
  | PasswordChanged
  | Reauthenticated
  | TotpSetupStarted
  | TotpEnabled
  | TotpDisabled
  | RecoveryCodesGenerated
  | RecoveryCodeUsed
  | EmailVerificationSent
  | EmailVerified;
