import { describe, expect, it } from 'vitest';
import { fold } from '../../shared/commands/decider.ts';
import { activeApiKeyCount, currentOwners, teamDecider, type TeamCommand } from './team-decider.ts';
import type { TeamEvent, TeamSettings } from './team-events.ts';
import { DeciderSpecification } from '../../test/helpers/decider-spec.ts';
import { accountStateOf, stripeAccountSettings } from './stripe-account-state.ts';

const teamId = '11111111-1111-4111-8111-111111111111';
const now = '2030-01-10T12:00:00.000Z';

const settings: TeamSettings = {
  name: 'Acme',
  plan: 'pro',
  timezone: 'UTC',
  locale: 'en-US',
  date_format: 'MM/DD/YYYY',
  email_sender_name: null,
  sending_paused: false,
  payments_connected: false,
  monthly_onboarding_limit: null,
  unpaid: false,
  new_recipient_cap: null,
};

const created: TeamEvent = { type: 'team.created', data: { team_id: teamId, ...settings, created_at: now } };

const slot = (id: string, expires_at: string | null = null): TeamEvent => ({
  type: 'team.api_key_slot_taken',
  data: { team_id: teamId, api_key_id: id, expires_at, taken_at: now },
});

const given = DeciderSpecification.for(teamDecider);

describe('team decider', () => {
  it('creates a team with its settings', () => {
    given([])
      .when({ type: 'CreateTeam', data: { team_id: teamId, settings }, metadata: { now: new Date(now) } })
      .then([created]);
  });

  it('refuses to create a team twice', () => {
    given([created])
      .when({ type: 'CreateTeam', data: { team_id: teamId, settings }, metadata: { now: new Date(now) } })
      .thenThrows('team_exists');
  });

  it('records only the settings that change', () => {
    given([created])
      .when({
        type: 'UpdateTeam',
        data: { changes: { name: 'Acme', plan: 'business', unpaid: true } },
        metadata: { now: new Date(now) },
      })
      .then([
        {
          type: 'team.updated',
          data: { team_id: teamId, changes: { plan: 'business', unpaid: true }, updated_at: now },
        },
      ]);
  });

  it('decides nothing when no setting changes', () => {
    given([created])
      .when({ type: 'UpdateTeam', data: { changes: { plan: 'pro' } }, metadata: { now: new Date(now) } })
      .then([]);
  });

  it('reads a team created before Stripe Connect as not connected, and records an account once', () => {
    const state = fold(teamDecider, [created]);
    expect(state.team).toMatchObject({ stripe_account_id: null, stripe_account_state: 'not_connected' });
    given([created])
      .when({
        type: 'UpdateTeam',
        data: { changes: stripeAccountSettings(null) },
        metadata: { now: new Date(now) },
      })
      .then([]);
    const connected: TeamEvent = {
      type: 'team.updated',
      data: {
        team_id: teamId,
        changes: { stripe_account_id: 'acct_1', stripe_account_state: 'details_missing' },
        updated_at: now,
      },
    };
    given([created])
      .when({
        type: 'UpdateTeam',
        data: { changes: stripeAccountSettings('acct_1', 'details_missing') },
        metadata: { now: new Date(now) },
      })
      .then([connected]);
    given([created, connected])
      .when({
        type: 'UpdateTeam',
        data: { changes: stripeAccountSettings('acct_1', 'ready') },
        metadata: { now: new Date(now) },
      })
      .then([
        {
          type: 'team.updated',
          data: {
            team_id: teamId,
            changes: { stripe_account_state: 'ready', payments_connected: true },
            updated_at: now,
          },
        },
      ]);
  });

  it('sets and clears the monthly onboarding override', () => {
    const unlimited: TeamEvent = {
      type: 'team.updated',
      data: { team_id: teamId, changes: { monthly_onboarding_limit: 'unlimited' }, updated_at: now },
    };
    given([created])
      .when({
        type: 'UpdateTeam',
        data: { changes: { monthly_onboarding_limit: 'unlimited' } },
        metadata: { now: new Date(now) },
      })
      .then([unlimited]);
    given([created, unlimited])
      .when({
        type: 'UpdateTeam',
        data: { changes: { monthly_onboarding_limit: null } },
        metadata: { now: new Date(now) },
      })
      .then([
        {
          type: 'team.updated',
          data: { team_id: teamId, changes: { monthly_onboarding_limit: null }, updated_at: now },
        },
      ]);
  });

  it('refuses commands for a team that does not exist', () => {
    given([])
      .when({ type: 'UpdateTeam', data: { changes: { name: 'x' } }, metadata: { now: new Date(now) } })
      .thenThrows('team_not_found');
    given([])
      .when({
        type: 'AddMember',
        data: { member_id: 'm1', name: 'A', email: 'a@x.io', role: 'owner' },
        metadata: { now: new Date(now) },
      })
      .thenThrows('team_not_found');
    given([])
      .when({
        type: 'TakeApiKeySlot',
        data: { api_key_id: 'k1', expires_at: null },
        metadata: { now: new Date(now) },
      })
      .thenThrows('team_not_found');
  });

  describe('members', () => {
    const added: TeamEvent = {
      type: 'team.member_added',
      data: {
        team_id: teamId,
        member_id: 'm1',
        name: 'Ann',
        email: 'ann@x.io',
        role: 'admin',
        added_at: now,
      },
    };
    const removed: TeamEvent = {
      type: 'team.member_removed',
      data: { team_id: teamId, member_id: 'm1', removed_at: now },
    };

    it('adds a member', () => {
      given([created])
        .when({
          type: 'AddMember',
          data: { member_id: 'm1', name: 'Ann', email: 'ann@x.io', role: 'admin' },
          metadata: { now: new Date(now) },
        })
        .then([added]);
    });

    it('refuses a second current member with the same email', () => {
      given([created, added])
        .when({
          type: 'AddMember',
          data: { member_id: 'm2', name: 'A2', email: 'ann@x.io', role: 'member' },
          metadata: { now: new Date(now) },
        })
        .thenThrows('member_exists');
    });

    it('accepts the email again once that member was removed', () => {
      given([created, added, removed])
        .when({
          type: 'AddMember',
          data: { member_id: 'm2', name: 'A2', email: 'ann@x.io', role: 'member' },
          metadata: { now: new Date(now) },
        })
        .then([
          {
            type: 'team.member_added',
            data: {
              team_id: teamId,
              member_id: 'm2',
              name: 'A2',
              email: 'ann@x.io',
              role: 'member',
              added_at: now,
            },
          },
        ]);
    });

    it('removes a member once', () => {
      given([created, added])
        .when({ type: 'RemoveMember', data: { member_id: 'm1' }, metadata: { now: new Date(now) } })
        .then([removed]);
      given([created, added, removed])
        .when({ type: 'RemoveMember', data: { member_id: 'm1' }, metadata: { now: new Date(now) } })
        .thenThrows('member_not_found');
      given([created])
        .when({ type: 'RemoveMember', data: { member_id: 'nobody' }, metadata: { now: new Date(now) } })
        .thenThrows('member_not_found');
    });
  });

  describe('invitations, roles and the last owner', () => {
    const at = { now: new Date(now) };
    const member = (id: string, email: string, role: 'owner' | 'admin' | 'member'): TeamEvent => ({
      type: 'team.member_added',
      data: { team_id: teamId, member_id: id, name: id, email, role, added_at: now },
    });
    const roleChanged = (id: string, role: 'owner' | 'admin' | 'member'): TeamEvent => ({
      type: 'team.member_role_changed',
      data: { team_id: teamId, member_id: id, role, changed_at: now },
    });
    const owner = member('o1', 'owner@x.io', 'owner');
    const admin = member('a1', 'admin@x.io', 'admin');

    it('invites an email that no current member uses', () => {
      given([created, owner])
        .when({
          type: 'InviteMember',
          data: { invitation_id: 'i1', email: 'new@x.io', role: 'member' },
          metadata: at,
        })
        .then([
          {
            type: 'team.member_invited',
            data: {
              team_id: teamId,
              invitation_id: 'i1',
              email: 'new@x.io',
              role: 'member',
              invited_at: now,
            },
          },
        ]);
    });

    it('resends and revokes a pending invitation; not an unknown, revoked or accepted one', () => {
      const invited: TeamEvent = {
        type: 'team.member_invited',
        data: { team_id: teamId, invitation_id: 'i1', email: 'new@x.io', role: 'member', invited_at: now },
      };
      const resend: TeamCommand = { type: 'ResendInvitation', data: { invitation_id: 'i1' }, metadata: at };
      const revoke: TeamCommand = { type: 'RevokeInvitation', data: { invitation_id: 'i1' }, metadata: at };
      const revoked: TeamEvent = {
        type: 'team.invitation_revoked',
        data: { team_id: teamId, invitation_id: 'i1', email: 'new@x.io', revoked_at: now },
      };
      given([created, owner, invited])
        .when(resend)
        .then([
          {
            type: 'team.invitation_resent',
            data: { team_id: teamId, invitation_id: 'i1', email: 'new@x.io', resent_at: now },
          },
        ]);
      given([created, owner, invited]).when(revoke).then([revoked]);
      given([created, owner]).when(resend).thenThrows('invitation_not_found');
      given([created, owner, invited, revoked]).when(resend).thenThrows('invitation_not_found');
      given([created, owner, invited, revoked]).when(revoke).thenThrows('invitation_not_found');
      const joined = member('n1', 'new@x.io', 'member');
      given([created, owner, invited, joined]).when(revoke).thenThrows('invitation_not_found');
    });

    it('refuses to invite the email of a current member, not of a removed one', () => {
      given([created, owner, admin])
        .when({
          type: 'InviteMember',
          data: { invitation_id: 'i1', email: 'admin@x.io', role: 'member' },
          metadata: at,
        })
        .thenThrows('member_exists');
      const removedAdmin: TeamEvent = {
        type: 'team.member_removed',
        data: { team_id: teamId, member_id: 'a1', removed_at: now },
      };
      expect(
        teamDecider.decide(
          {
            type: 'InviteMember',
            data: { invitation_id: 'i2', email: 'admin@x.io', role: 'admin' },
            metadata: at,
          },
          fold(teamDecider, [created, owner, admin, removedAdmin]),
        ),
      ).toHaveLength(1);
    });

    it('refuses to invite into a team that does not exist', () => {
      given([])
        .when({
          type: 'InviteMember',
          data: { invitation_id: 'i1', email: 'n@x.io', role: 'member' },
          metadata: at,
        })
        .thenThrows('team_not_found');
    });

    it('changes a role and records nothing when it is already that role', () => {
      given([created, owner, admin])
        .when({ type: 'ChangeMemberRole', data: { member_id: 'a1', role: 'owner' }, metadata: at })
        .then([roleChanged('a1', 'owner')]);
      given([created, owner, admin])
        .when({ type: 'ChangeMemberRole', data: { member_id: 'a1', role: 'admin' }, metadata: at })
        .then([]);
    });

    it('refuses to change the role of a missing or removed member', () => {
      given([created, owner])
        .when({ type: 'ChangeMemberRole', data: { member_id: 'nobody', role: 'admin' }, metadata: at })
        .thenThrows('member_not_found');
      given([
        created,
        owner,
        admin,
        { type: 'team.member_removed', data: { team_id: teamId, member_id: 'a1', removed_at: now } },
      ])
        .when({ type: 'ChangeMemberRole', data: { member_id: 'a1', role: 'member' }, metadata: at })
        .thenThrows('member_not_found');
    });

    it('refuses to demote the last owner', () => {
      given([created, owner, admin])
        .when({ type: 'ChangeMemberRole', data: { member_id: 'o1', role: 'admin' }, metadata: at })
        .thenThrows('last_owner');
    });

    it('demotes an owner while another owner stays', () => {
      given([created, owner, admin, roleChanged('a1', 'owner')])
        .when({ type: 'ChangeMemberRole', data: { member_id: 'o1', role: 'member' }, metadata: at })
        .then([roleChanged('o1', 'member')]);
    });

    it('counts a demoted owner no more: the remaining owner is then the last', () => {
      given([created, owner, admin, roleChanged('a1', 'owner'), roleChanged('o1', 'member')])
        .when({ type: 'ChangeMemberRole', data: { member_id: 'a1', role: 'admin' }, metadata: at })
        .thenThrows('last_owner');
    });

    it('refuses to remove the last owner when asked to keep an owner', () => {
      given([created, owner, admin])
        .when({ type: 'RemoveMember', data: { member_id: 'o1', keep_an_owner: true }, metadata: at })
        .thenThrows('last_owner');
    });

    it('removes an owner while another owner stays, and any non-owner', () => {
      given([created, owner, admin, roleChanged('a1', 'owner')])
        .when({ type: 'RemoveMember', data: { member_id: 'o1', keep_an_owner: true }, metadata: at })
        .then([{ type: 'team.member_removed', data: { team_id: teamId, member_id: 'o1', removed_at: now } }]);
      given([created, owner, admin])
        .when({ type: 'RemoveMember', data: { member_id: 'a1', keep_an_owner: true }, metadata: at })
        .then([{ type: 'team.member_removed', data: { team_id: teamId, member_id: 'a1', removed_at: now } }]);
    });

    it('lets the operator remove the last owner (no keep_an_owner flag)', () => {
      given([created, owner])
        .when({ type: 'RemoveMember', data: { member_id: 'o1' }, metadata: at })
        .then([{ type: 'team.member_removed', data: { team_id: teamId, member_id: 'o1', removed_at: now } }]);
    });

    it('lists the current owners only', () => {
      const state = fold(teamDecider, [
        created,
        owner,
        admin,
        roleChanged('a1', 'owner'),
        { type: 'team.member_removed', data: { team_id: teamId, member_id: 'o1', removed_at: now } },
      ]);
      expect(currentOwners(state)).toEqual(['a1']);
    });
  });

  describe('API key slots', () => {
    const five = ['k1', 'k2', 'k3', 'k4', 'k5'].map((id) => slot(id));

    it('takes a slot while fewer than 5 keys are active', () => {
      given([created, ...five.slice(0, 4)])
        .when({
          type: 'TakeApiKeySlot',
          data: { api_key_id: 'k5', expires_at: null },
          metadata: { now: new Date(now) },
        })
        .then([five[4]!]);
    });

    it('refuses a sixth active key with key_limit_reached', () => {
      given([created, ...five])
        .when({
          type: 'TakeApiKeySlot',
          data: { api_key_id: 'k6', expires_at: null },
          metadata: { now: new Date(now) },
        })
        .thenThrows('key_limit_reached');
    });

    it('frees a slot when a key is revoked', () => {
      const released: TeamEvent = {
        type: 'team.api_key_slot_released',
        data: { team_id: teamId, api_key_id: 'k1', released_at: now },
      };
      given([created, ...five, released])
        .when({
          type: 'TakeApiKeySlot',
          data: { api_key_id: 'k6', expires_at: null },
          metadata: { now: new Date(now) },
        })
        .then([slot('k6')]);
    });

    it('frees a slot once a key has expired (at the end of its UTC date)', () => {
      const expiring = slot('k1', '2030-01-10T23:59:59.999Z');
      const events = [created, expiring, ...five.slice(1)];
      given(events)
        .when({
          type: 'TakeApiKeySlot',
          data: { api_key_id: 'k6', expires_at: null },
          metadata: { now: new Date('2030-01-10T23:59:59.999Z') },
        })
        .thenThrows('key_limit_reached');
      given(events)
        .when({
          type: 'TakeApiKeySlot',
          data: { api_key_id: 'k6', expires_at: null },
          metadata: { now: new Date('2030-01-11T00:00:00.000Z') },
        })
        .then([
          {
            type: 'team.api_key_slot_taken',
            data: {
              team_id: teamId,
              api_key_id: 'k6',
              expires_at: null,
              taken_at: '2030-01-11T00:00:00.000Z',
            },
          },
        ]);
      expect(activeApiKeyCount(fold(teamDecider, events), '2030-01-11T00:00:00.000Z')).toBe(4);
    });

    it('releases a slot idempotently', () => {
      const released: TeamEvent = {
        type: 'team.api_key_slot_released',
        data: { team_id: teamId, api_key_id: 'k1', released_at: now },
      };
      given([created, slot('k1')])
        .when({ type: 'ReleaseApiKeySlot', data: { api_key_id: 'k1' }, metadata: { now: new Date(now) } })
        .then([released]);
      given([created, slot('k1'), released])
        .when({ type: 'ReleaseApiKeySlot', data: { api_key_id: 'k1' }, metadata: { now: new Date(now) } })
        .then([]);
      given([created])
        .when({
          type: 'ReleaseApiKeySlot',
          data: { api_key_id: 'unknown' },
          metadata: { now: new Date(now) },
        })
        .then([]);
    });
  });
});

describe('team branding', () => {
  const logo = { sha256: 'c'.repeat(64), content_type: 'image/png' as const, size_bytes: 68 };
  const update = (changes: Extract<TeamCommand, { type: 'UpdateTeam' }>['data']['changes']): TeamCommand => ({
    type: 'UpdateTeam',
    data: { changes },
    metadata: { now: new Date(now) },
  });
  const updated = (changes: object): TeamEvent => ({
    type: 'team.updated',
    data: { team_id: teamId, changes, updated_at: now },
  });

  it('a team created before branding has none: null changes nothing, a color or logo is recorded', () => {
    given([created])
      .when(update({ accent_color: null, logo: null }))
      .then([]);
    given([created])
      .when(update({ accent_color: '#1d4ed8', logo }))
      .then([updated({ accent_color: '#1d4ed8', logo })]);
  });

  it('the same logo (by its bytes) changes nothing; another or none does', () => {
    const withLogo = [created, updated({ logo })];
    given(withLogo)
      .when(update({ logo: { ...logo } }))
      .then([]);
    const other = { ...logo, sha256: 'd'.repeat(64) };
    given(withLogo)
      .when(update({ logo: other }))
      .then([updated({ logo: other })]);
    given(withLogo)
      .when(update({ logo: null }))
      .then([updated({ logo: null })]);
  });
});

describe('stripe account state', () => {
  it('is ready only with charges enabled and details submitted; payments_connected follows it', () => {
    expect(accountStateOf({ chargesEnabled: true, detailsSubmitted: true })).toBe('ready');
    expect(accountStateOf({ chargesEnabled: true, detailsSubmitted: false })).toBe('details_missing');
    expect(accountStateOf({ chargesEnabled: false, detailsSubmitted: true })).toBe('details_missing');
    expect(stripeAccountSettings('acct_1')).toEqual({
      stripe_account_id: 'acct_1',
      stripe_account_state: 'ready',
      payments_connected: true,
    });
    expect(stripeAccountSettings('acct_1', 'details_missing').payments_connected).toBe(false);
    expect(stripeAccountSettings(null)).toEqual({
      stripe_account_id: null,
      stripe_account_state: 'not_connected',
      payments_connected: false,
    });
  });
});
