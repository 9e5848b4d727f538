import { DomainError, type Decider } from '../../shared/commands/decider.ts';
import { assertInt4, assertStorable } from '../../shared/validation/safe-text.ts';
import { DEFAULT_REMINDER_SCHEDULE } from '../onboardings/contract/reminder-schedule.ts';
import type { MemberRole } from './contract/roles.ts';
import type { Locale } from '../../shared/i18n/locales.ts';
import { NOT_CONNECTED } from './stripe-account-state.ts';
import type {
  ApiKeySlotTaken,
  MemberAdded,
  TeamEvent,
  TeamBranding,
  TeamSettings,
  TeamStripeAccount,
  TeamUpdated,
} from './team-events.ts';

/** A team has at most 5 active API keys (client-onboarding-api.md, Limits). */
export const MAX_ACTIVE_API_KEYS = 5;

export interface TeamState {
  team:
    | (TeamSettings &
        TeamStripeAccount &
        Partial<TeamBranding> & { id: string; created_at: string; updated_at: string })
    | null;
  members: Readonly<
    Record<string, { email: string; role: MemberRole; removed: boolean; locale?: Locale | null }>
  >;
  /** Slots taken by API keys; released when a key is revoked. */
  apiKeys: Readonly<Record<string, { expires_at: string | null; released: boolean }>>;
  /** Invitations sent, by id; a revoked one is gone (its acceptance is the route's table). */
  invitations: Readonly<Record<string, { email: string }>>;
}

/** Every command carries the service clock's time in `metadata.now`. */
export type TeamCommand = (
  | { type: 'CreateTeam'; data: { team_id: string; settings: TeamSettings } }
  | { type: 'UpdateTeam'; data: { changes: Partial<TeamSettings & TeamStripeAccount & TeamBranding> } }
  | { type: 'AddMember'; data: { member_id: string; name: string; email: string; role: MemberRole } }
  | { type: 'InviteMember'; data: { invitation_id: string; email: string; role: MemberRole } }
  | { type: 'ResendInvitation'; data: { invitation_id: string } }
  | { type: 'RevokeInvitation'; data: { invitation_id: string } }
  | { type: 'ChangeMemberRole'; data: { member_id: string; role: MemberRole } }
  | { type: 'ChooseMemberLocale'; data: { member_id: string; locale: Locale | null } }
  /** keep_an_owner: refuse to remove the team's last owner (the workspace sets it; 409 last_owner). */
  | { type: 'RemoveMember'; data: { member_id: string; keep_an_owner?: boolean } }
  | { type: 'TakeApiKeySlot'; data: { api_key_id: string; expires_at: string | null } }
  | { type: 'ReleaseApiKeySlot'; data: { api_key_id: string } }
) & { metadata: { now: Date } };

const initialState = (): TeamState => ({ team: null, members: {}, apiKeys: {}, invitations: {} });

function requireTeam(state: TeamState): NonNullable<TeamState['team']> {
  if (!state.team) throw new DomainError('team_not_found', 'Team not found');
  return state.team;
}

/** Keys that are neither revoked nor past their expiry at `now`. */
export function activeApiKeyCount(state: TeamState, now: string): number {
  const at = Date.parse(now);
  return Object.values(state.apiKeys).filter(
    (slot) => !slot.released && (slot.expires_at === null || Date.parse(slot.expires_at) >= at),
  ).length;
}

function createTeam(command: Extract<TeamCommand, { type: 'CreateTeam' }>, state: TeamState): TeamEvent[] {
  if (state.team) throw new DomainError('team_exists', 'Team already exists');
  const { team_id, settings } = command.data;
  return [
    { type: 'team.created', data: { team_id, ...settings, created_at: command.metadata.now.toISOString() } },
  ];
}

function updateTeam(command: Extract<TeamCommand, { type: 'UpdateTeam' }>, state: TeamState): TeamEvent[] {
  const team = requireTeam(state);
  const changes: Partial<TeamSettings & TeamStripeAccount & TeamBranding> = {};
  for (const [name, value] of Object.entries(command.data.changes) as [
    keyof (TeamSettings & TeamStripeAccount & TeamBranding),
    unknown,
  ][]) {
    const current = team[name] ?? (name === 'reminder_schedule' ? DEFAULT_REMINDER_SCHEDULE : null);
    if (value === undefined || sameSetting(current, value)) continue;
    (changes as Record<string, unknown>)[name] = value;
  }
  if (Object.keys(changes).length === 0) return [];
  const event: TeamUpdated = {
    type: 'team.updated',
    data: { team_id: team.id, changes, updated_at: command.metadata.now.toISOString() },
  };
  return [event];
}

/** Settings are equal by value; a logo is the same logo when its bytes are (sha256). */
function sameSetting(current: unknown, next: unknown): boolean {
  if (Array.isArray(current) || Array.isArray(next)) return JSON.stringify(current) === JSON.stringify(next);
  if (current !== null && next !== null && typeof current === 'object' && typeof next === 'object') {
    return (current as { sha256?: unknown }).sha256 === (next as { sha256?: unknown }).sha256;
  }
  return current === next;
}

/** One member per email: a current member's address cannot be added or invited again. */
function assertNoMemberWith(state: TeamState, email: string): void {
  const taken = Object.values(state.members).some((member) => !member.removed && member.email === email);
  if (taken) throw new DomainError('member_exists', 'A member with this email already exists');
}

/** A member who was added and not removed. */
function currentMember(state: TeamState, memberId: string): TeamState['members'][string] {
  const member = state.members[memberId];
  if (!member || member.removed) throw new DomainError('member_not_found', 'Member not found');
  return member;
}

function addMember(command: Extract<TeamCommand, { type: 'AddMember' }>, state: TeamState): TeamEvent[] {
  const team = requireTeam(state);
  const { member_id, name, email, role } = command.data;
  assertNoMemberWith(state, email);
  const event: MemberAdded = {
    type: 'team.member_added',
    data: { team_id: team.id, member_id, name, email, role, added_at: command.metadata.now.toISOString() },
  };
  return [event];
}

/** The current owners of the team. */
export function currentOwners(state: TeamState): string[] {
  return Object.entries(state.members)
    .filter(([, member]) => !member.removed && member.role === 'owner')
    .map(([id]) => id);
}

const lastOwner = () =>
  new DomainError('last_owner', 'A team needs at least one owner: make another member an owner first');

function isLastOwner(state: TeamState, memberId: string): boolean {
  const owners = currentOwners(state);
  return owners.length === 1 && owners[0] === memberId;
}

function inviteMember(
  command: Extract<TeamCommand, { type: 'InviteMember' }>,
  state: TeamState,
): TeamEvent[] {
  const team = requireTeam(state);
  const { invitation_id, email, role } = command.data;
  assertNoMemberWith(state, email);
  return [
    {
      type: 'team.member_invited',
      data: { team_id: team.id, invitation_id, email, role, invited_at: command.metadata.now.toISOString() },
    },
  ];
}

const invitationNotFound = () =>
  new DomainError('invitation_not_found', 'No pending invitation with this id');

/** Resend or revoke an invitation the team sent and did not revoke, to an address not yet a member. */
function pendingInvitation(state: TeamState, invitationId: string): { email: string } {
  const invitation = state.invitations[invitationId];
  if (!invitation) throw invitationNotFound();
  const joined = Object.values(state.members).some(
    (member) => !member.removed && member.email === invitation.email,
  );
  if (joined) throw invitationNotFound();
  return invitation;
}

/** A resend or a revocation of a pending invitation: the same check, each its own event. */
function resendOrRevokeInvitation(
  command: Extract<TeamCommand, { type: 'ResendInvitation' | 'RevokeInvitation' }>,
  state: TeamState,
): TeamEvent[] {
  const team = requireTeam(state);
  const { invitation_id } = command.data;
  const { email } = pendingInvitation(state, invitation_id);
  const at = command.metadata.now.toISOString();
  return [
    command.type === 'ResendInvitation'
      ? { type: 'team.invitation_resent', data: { team_id: team.id, invitation_id, email, resent_at: at } }
      : { type: 'team.invitation_revoked', data: { team_id: team.id, invitation_id, email, revoked_at: at } },
  ];
}

function changeMemberRole(
  command: Extract<TeamCommand, { type: 'ChangeMemberRole' }>,
  state: TeamState,
): TeamEvent[] {
  const team = requireTeam(state);
  const { member_id, role } = command.data;
  const member = currentMember(state, member_id);
  if (member.role === role) return [];
  if (role !== 'owner' && isLastOwner(state, member_id)) throw lastOwner();
  return [
    {
      type: 'team.member_role_changed',
      data: { team_id: team.id, member_id, role, changed_at: command.metadata.now.toISOString() },
    },
  ];
}

function chooseMemberLocale(
  command: Extract<TeamCommand, { type: 'ChooseMemberLocale' }>,
  state: TeamState,
): TeamEvent[] {
  const team = requireTeam(state);
  const { member_id, locale } = command.data;
  const member = currentMember(state, member_id);
  if ((member.locale ?? null) === locale) return [];
  return [
    {
      type: 'team.member_locale_chosen',
      data: { team_id: team.id, member_id, locale, chosen_at: command.metadata.now.toISOString() },
    },
  ];
}

function removeMember(
  command: Extract<TeamCommand, { type: 'RemoveMember' }>,
  state: TeamState,
): TeamEvent[] {
  const team = requireTeam(state);
  currentMember(state, command.data.member_id);
  if (command.data.keep_an_owner && isLastOwner(state, command.data.member_id)) throw lastOwner();
  return [
    {
      type: 'team.member_removed',
      data: {
        team_id: team.id,
        member_id: command.data.member_id,
        removed_at: command.metadata.now.toISOString(),
      },
    },
  ];
}

function takeApiKeySlot(
  command: Extract<TeamCommand, { type: 'TakeApiKeySlot' }>,
  state: TeamState,
): TeamEvent[] {
  const team = requireTeam(state);
  const { api_key_id, expires_at } = command.data;
  const now = command.metadata.now.toISOString();
  if (state.apiKeys[api_key_id]) throw new DomainError('api_key_exists', 'API key already exists');
  if (activeApiKeyCount(state, now) >= MAX_ACTIVE_API_KEYS) {
    throw new DomainError(
      'key_limit_reached',
      `A team can have at most ${MAX_ACTIVE_API_KEYS} active API keys`,
    );
  }
  const event: ApiKeySlotTaken = {
    type: 'team.api_key_slot_taken',
    data: { team_id: team.id, api_key_id, expires_at, taken_at: now },
  };
  return [event];
}

/** Idempotent: releasing a slot that is free (or unknown) decides nothing. */
function releaseApiKeySlot(
  command: Extract<TeamCommand, { type: 'ReleaseApiKeySlot' }>,
  state: TeamState,
): TeamEvent[] {
  const team = requireTeam(state);
  const slot = state.apiKeys[command.data.api_key_id];
  if (!slot || slot.released) return [];
  return [
    {
      type: 'team.api_key_slot_released',
      data: {
        team_id: team.id,
        api_key_id: command.data.api_key_id,
        released_at: command.metadata.now.toISOString(),
      },
    },
  ];
}

/** Settings stored in int4 columns of the teams read model. */
function assertIntegerSettings(settings: Partial<TeamSettings>): void {
  if (typeof settings.monthly_onboarding_limit === 'number') {
    assertInt4(settings.monthly_onboarding_limit, 'monthly_onboarding_limit');
  }
  assertInt4(settings.new_recipient_cap, 'new_recipient_cap');
}

function decide(command: TeamCommand, state: TeamState): TeamEvent[] {
  assertStorable(command.data);
  if (command.type === 'CreateTeam') assertIntegerSettings(command.data.settings);
  if (command.type === 'UpdateTeam') assertIntegerSettings(command.data.changes);
  switch (command.type) {
    case 'CreateTeam':
      return createTeam(command, state);
    case 'UpdateTeam':
      return updateTeam(command, state);
    case 'AddMember':
      return addMember(command, state);
    case 'InviteMember':
      return inviteMember(command, state);
    case 'ResendInvitation':
    case 'RevokeInvitation':
      return resendOrRevokeInvitation(command, state);
    case 'ChangeMemberRole':
      return changeMemberRole(command, state);
    case 'ChooseMemberLocale':
      return chooseMemberLocale(command, state);
    case 'RemoveMember':
      return removeMember(command, state);
    case 'TakeApiKeySlot':
      return takeApiKeySlot(command, state);
    case 'ReleaseApiKeySlot':
      return releaseApiKeySlot(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`Unknown team command ${JSON.stringify(unknown)}`);
    }
  }
}

/** The state with a known member changed (an unknown one leaves it as it is). */
function withMember(
  state: TeamState,
  memberId: string,
  change: Partial<TeamState['members'][string]>,
): TeamState {
  const member = state.members[memberId];
  if (!member) return state;
  return { ...state, members: { ...state.members, [memberId]: { ...member, ...change } } };
}

function evolve(state: TeamState, event: TeamEvent): TeamState {
  switch (event.type) {
    case 'team.created': {
      const { team_id, created_at, ...settings } = event.data;
      return {
        ...state,
        team: { ...settings, ...NOT_CONNECTED, id: team_id, created_at, updated_at: created_at },
      };
    }
    case 'team.updated':
      if (!state.team) return state;
      return { ...state, team: { ...state.team, ...event.data.changes, updated_at: event.data.updated_at } };
    case 'team.member_added':
      return {
        ...state,
        members: {
          ...state.members,
          [event.data.member_id]: { email: event.data.email, role: event.data.role, removed: false },
        },
      };
    case 'team.member_invited':
      return {
        ...state,
        invitations: { ...state.invitations, [event.data.invitation_id]: { email: event.data.email } },
      };
    case 'team.invitation_revoked': {
      const { [event.data.invitation_id]: _revoked, ...invitations } = state.invitations;
      return { ...state, invitations };
    }
    case 'team.member_role_changed':
      return withMember(state, event.data.member_id, { role: event.data.role });
    case 'team.member_locale_chosen':
      return withMember(state, event.data.member_id, { locale: event.data.locale });
    case 'team.member_removed':
      return withMember(state, event.data.member_id, { removed: true });
    case 'team.api_key_slot_taken':
      return {
        ...state,
        apiKeys: {
          ...state.apiKeys,
          [event.data.api_key_id]: { expires_at: event.data.expires_at, released: false },
        },
      };
    case 'team.api_key_slot_released': {
      const slot = state.apiKeys[event.data.api_key_id];
      if (!slot) return state;
      return {
        ...state,
        apiKeys: { ...state.apiKeys, [event.data.api_key_id]: { ...slot, released: true } },
      };
    }
    default:
      return state;
  }
}

export const teamDecider: Decider<TeamState, TeamCommand, TeamEvent> = {
  initialState,
  evolve,
  decide,
};
