import { SCOPES } from '../../../services/access/contract/scopes.ts';
import { PLANS } from '../../../services/access/contract/plans.ts';
import { MEMBER_ROLES } from '../../../services/access/contract/roles.ts';
import { DATE_FORMATS, LOCALES } from '../../../shared/i18n/locales.ts';
import { STRIPE_ACCOUNT_STATES } from '../../../services/access/stripe-account-state.ts';
import {
  arrayOf,
  boolean,
  constant,
  integer,
  nonEmpty,
  nullable,
  object,
  oneOfValues,
  string,
  text,
  timestamp,
  uuid,
  type JsonSchema,
} from '../json-schema.ts';
import { reminderSchedule, partial } from './fragments.ts';
import type { EventCatalogPart, EventTypeDoc } from './types.ts';

const teamSettings = {
  name: text,
  plan: oneOfValues(PLANS),
  timezone: nonEmpty,
  locale: nonEmpty,
  date_format: oneOfValues(DATE_FORMATS),
  email_sender_name: nullable(text),
  sending_paused: boolean,
  payments_connected: boolean,
  monthly_onboarding_limit: {
    anyOf: [integer({ minimum: 0 }), constant('unlimited'), { type: 'null' }],
    description: "Override of the plan's monthly cap; null keeps the plan's.",
  },
  unpaid: boolean,
  new_recipient_cap: nullable(integer({ minimum: 0 })),
};

/**
 * The team's connected Stripe account (services/access/stripe-account-state.ts), changed
 * through team.updated only; payments_connected follows its state. A team created without
 * one is not connected.
 */
const teamStripeAccount = {
  stripe_account_id: nullable(string({ pattern: '^acct_[A-Za-z0-9]+$' })),
  stripe_account_state: {
    ...oneOfValues(STRIPE_ACCOUNT_STATES),
    description: 'ready: the account takes charges and its details are submitted',
  },
};

/** The team's branding of the client's form page (services/access/team-branding.ts); changed by PATCH only. */
const teamBranding = {
  accent_color: nullable(string({ pattern: '^#[0-9a-f]{6}$' })),
  logo: nullable(
    object({
      sha256: string({ pattern: '^[0-9a-f]{64}$' }),
      content_type: oneOfValues(['image/png', 'image/jpeg', 'image/webp']),
      size_bytes: integer({ minimum: 1 }),
    }),
  ),
};

/** The doc of a team event: appended to the team's stream, its data led by the team's id. */
const teamEvent = (summary: string, facts: Record<string, JsonSchema>): EventTypeDoc => ({
  summary,
  stream: 'team-<team_id>',
  data: object({ team_id: uuid, ...facts }),
});

/** The data of every account event: the member, their team, when, and the event's own facts. */
const accountFact = (extra: Record<string, JsonSchema> = {}): JsonSchema =>
  object({ member_id: uuid, team_id: uuid, at: timestamp, ...extra });

/** Teams and members, API keys and workspace accounts. */
export const ACCESS_EVENTS: EventCatalogPart = {
  // Teams and members (stream team-<team_id>)
  'team.created': teamEvent('A team was created with its settings.', {
    ...teamSettings,
    created_at: timestamp,
  }),
  'team.updated': teamEvent('Team settings changed; only the changed settings are given.', {
    changes: partial({
      ...teamSettings,
      ...teamStripeAccount,
      ...teamBranding,
      reminder_schedule: reminderSchedule,
    }),
    updated_at: timestamp,
  }),
  'team.member_added': teamEvent('A member joined the team.', {
    member_id: uuid,
    name: text,
    email: text,
    role: oneOfValues(MEMBER_ROLES),
    added_at: timestamp,
  }),
  'team.member_invited': teamEvent(
    'An owner invited someone by email; the one-time link itself is not in the event.',
    { invitation_id: uuid, email: text, role: oneOfValues(MEMBER_ROLES), invited_at: timestamp },
  ),
  'team.invitation_resent': teamEvent(
    'An owner or admin emailed a pending invitation again; a new link replaced the older one.',
    { invitation_id: uuid, email: text, resent_at: timestamp },
  ),
  'team.invitation_revoked': teamEvent(
    'An owner or admin revoked a pending invitation; its link no longer accepts.',
    { invitation_id: uuid, email: text, revoked_at: timestamp },
  ),
  'team.member_role_changed': teamEvent("A member's role changed.", {
    member_id: uuid,
    role: oneOfValues(MEMBER_ROLES),
    changed_at: timestamp,
  }),
  'team.member_locale_chosen': teamEvent(
    "A member chose the language of their workspace and of its emails to them (null: the team's).",
    { member_id: uuid, locale: nullable(oneOfValues(LOCALES)), chosen_at: timestamp },
  ),
  'team.member_removed': teamEvent('A member left the team.', { member_id: uuid, removed_at: timestamp }),
  'team.api_key_slot_taken': teamEvent("An API key took one of the team's key slots.", {
    api_key_id: uuid,
    expires_at: nullable(timestamp),
    taken_at: timestamp,
  }),
  'team.api_key_slot_released': teamEvent('An API key gave its slot back (revoked or expired).', {
    api_key_id: uuid,
    released_at: timestamp,
  }),

  // API keys (stream api_key-<api_key_id>)
  'api_key.created': {
    summary: 'An API key was created. Only the SHA-256 of its secret is kept.',
    stream: 'api_key-<api_key_id>',
    data: object(
      {
        api_key_id: uuid,
        team_id: uuid,
        name: text,
        scopes: arrayOf(oneOfValues(SCOPES)),
        key_hash: nonEmpty,
        expires_at: nullable(timestamp),
        created_at: timestamp,
      },
      { replaces_api_key_id: uuid, key_prefix: nonEmpty },
    ),
  },
  'api_key.revoked': {
    summary: 'An API key was revoked.',
    stream: 'api_key-<api_key_id>',
    data: object({ api_key_id: uuid, team_id: uuid, revoked_at: timestamp }),
  },

  // Workspace accounts (stream member_account-<member_id>): facts only; the password hash,
  // the two-factor secret and the sessions stay in operational tables.
  'account.opened': {
    summary: 'A member got a workspace account (sign-up or an accepted invitation).',
    stream: 'member_account-<member_id>',
    data: accountFact(),
  },
  'account.signed_in': {
    summary: 'The member signed in to the workspace; second_factor says whether a two-factor code was given.',
    stream: 'member_account-<member_id>',
    data: accountFact({ second_factor: boolean }),
  },
  'account.signed_out': {
    summary:
      'Sessions of the member ended: the current one, every one (sign out everywhere), every one after a password reset, or every other one (two-factor turned on, password changed).',
    stream: 'member_account-<member_id>',
    data: accountFact({ scope: oneOfValues(['current', 'everywhere', 'password_reset', 'other_sessions']) }),
  },
  'account.sign_in_locked': {
    summary: 'Too many wrong passwords locked signing in to the account until locked_until.',
    stream: 'member_account-<member_id>',
    data: accountFact({ locked_until: timestamp }),
  },
  'account.password_changed': {
    summary:
      'The password changed (through a reset link, or changed by the signed-in member); the hash is not in the event.',
    stream: 'member_account-<member_id>',
    data: accountFact({ reason: oneOfValues(['reset', 'change']) }),
  },
  'account.reauthenticated': {
    summary: 'The member confirmed their password or a two-factor code for a sensitive action.',
    stream: 'member_account-<member_id>',
    data: accountFact({ method: oneOfValues(['password', 'totp']) }),
  },
  'account.totp_setup_started': {
    summary: 'The member started setting up two-factor sign-in (not on until confirmed).',
    stream: 'member_account-<member_id>',
    data: accountFact(),
  },
  'account.totp_enabled': {
    summary: 'Two-factor sign-in was turned on with a confirmed code.',
    stream: 'member_account-<member_id>',
    data: accountFact(),
  },
  'account.totp_disabled': {
    summary: 'Two-factor sign-in was turned off (after a re-authentication).',
    stream: 'member_account-<member_id>',
    data: accountFact(),
  },
  'account.recovery_codes_generated': {
    summary:
      'New one-time recovery codes replaced the older ones (two-factor turned on, or regenerated); the codes are not in the event.',
    stream: 'member_account-<member_id>',
    data: accountFact({ count: integer() }),
  },
  'account.recovery_code_used': {
    summary: 'A recovery code stood in for a two-factor code at sign-in; codes_left counts the unused ones.',
    stream: 'member_account-<member_id>',
    data: accountFact({ codes_left: integer() }),
  },
  'account.email_verification_sent': {
    summary:
      'A self-serve owner was emailed a link to verify their address (at sign-up or a resend); until it is followed the team sends nothing.',
    stream: 'member_account-<member_id>',
    data: accountFact(),
  },
  'account.email_verified': {
    summary:
      'The owner followed the emailed link: their team may send onboardings, invitations and automation mail.',
    stream: 'member_account-<member_id>',
    data: accountFact(),
  },
};
