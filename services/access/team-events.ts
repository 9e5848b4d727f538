import type { DomainEvent } from '../../shared/commands/decider.ts';
import type { DateFormat, Locale } from '../../shared/i18n/locales.ts';
import type { LogoType } from './contract/logo-limits.ts';
import type { MemberRole } from './contract/roles.ts';
import type { ReminderRule } from '../onboardings/contract/reminder-schedule.ts';
import type { MonthlyOnboardingOverride, Plan } from './contract/plans.ts';
import type { StripeAccountOfTeam } from './stripe-account-state.ts';

/** Stream of one team: `team-<team_id>`. Members and API key slots are events of it. */
export const teamStreamId = (teamId: string) => `team-${teamId}`;

/** Every setting of a team (operator API: POST and PATCH /admin/v1/teams). */
export interface TeamSettings {
  name: string;
  plan: Plan;
  timezone: string;
  locale: string;
  date_format: DateFormat;
  email_sender_name: string | null;
  sending_paused: boolean;
  payments_connected: boolean;
  monthly_onboarding_limit: MonthlyOnboardingOverride;
  unpaid: boolean;
  /** New recipients an unpaid team may invite per 24 hours; null keeps the default. */
  new_recipient_cap: number | null;
}

/** The team's logo: its bytes live in table team_logos under (team_id, sha256). */
export interface TeamLogo {
  sha256: string;
  content_type: LogoType;
  size_bytes: number;
}

/**
 * How the client's form page shows the team (PATCH /admin/v1/teams/:team_id). Teams created
 * before branding existed have neither, which reads as null.
 */
export interface TeamBranding {
  /** '#rrggbb' with a contrast ratio of at least 4.5:1 against white, or null. */
  accent_color: string | null;
  logo: TeamLogo | null;
  /**
   * The default reminder schedule of the team's new onboardings (workspace team settings);
   * teams that never changed it have none, which reads as the service default.
   */
  reminder_schedule: ReminderRule[];
}

/**
 * The team's connected Stripe account (`acct_...`) and its state (./stripe-account-state.ts),
 * changed through team.updated only; payments_connected follows the state. A team whose
 * events never named one reads as null and 'not_connected'.
 */
export type TeamStripeAccount = StripeAccountOfTeam;

export type TeamCreated = DomainEvent<'team.created', TeamSettings & { team_id: string; created_at: string }>;

/** Only the settings that changed. */
export type TeamUpdated = DomainEvent<
  'team.updated',
  { team_id: string; changes: Partial<TeamSettings & TeamStripeAccount & TeamBranding>; updated_at: string }
>;

export type MemberAdded = DomainEvent<
  'team.member_added',
  { team_id: string; member_id: string; name: string; email: string; role: MemberRole; added_at: string }
>;

/** An owner invited someone by email (the one-time link lives in table workspace_tokens). */
export type MemberInvited = DomainEvent<
  'team.member_invited',
  { team_id: string; invitation_id: string; email: string; role: MemberRole; invited_at: string }
>;

/** An owner or admin sent an invitation again: a new link replaces the older one. */
export type InvitationResent = DomainEvent<
  'team.invitation_resent',
  { team_id: string; invitation_id: string; email: string; resent_at: string }
>;

/** An owner or admin revoked a pending invitation: its link no longer accepts. */
export type InvitationRevoked = DomainEvent<
  'team.invitation_revoked',
  { team_id: string; invitation_id: string; email: string; revoked_at: string }
>;

export type MemberRoleChanged = DomainEvent<
  'team.member_role_changed',
  { team_id: string; member_id: string; role: MemberRole; changed_at: string }
>;

/**
 * A member chose the language of their workspace and of the emails it sends them (null: the
 * team's language again).
 */
export type MemberLocaleChosen = DomainEvent<
  'team.member_locale_chosen',
  { team_id: string; member_id: string; locale: Locale | null; chosen_at: string }
>;

export type MemberRemoved = DomainEvent<
  'team.member_removed',
  { team_id: string; member_id: string; removed_at: string }
>;

/**
 * An API key takes one of the team's 5 slots. The key itself lives in its own stream
 * (`api_key-<id>`); the team stream holds the slots so that its expected revision keeps
 * two concurrent creations from making a sixth active key.
 */
export type ApiKeySlotTaken = DomainEvent<
  'team.api_key_slot_taken',
  { team_id: string; api_key_id: string; expires_at: string | null; taken_at: string }
>;

export type ApiKeySlotReleased = DomainEvent<
  'team.api_key_slot_released',
  { team_id: string; api_key_id: string; released_at: string }
>;

export type TeamEvent =
  | TeamCreated
  | TeamUpdated
  | MemberAdded
  | MemberInvited
  | InvitationResent
  | InvitationRevoked
  | MemberRoleChanged
  | MemberLocaleChosen
  | MemberRemoved
  | ApiKeySlotTaken
  | ApiKeySlotReleased;
