import type { RecordedEvent } from '../../shared/event-store/event-store.ts';

/**
 * The pure half of the team_activity read model (./projection.ts writes it): each event
 * of the workspace's audit view becomes one record; the actor is the event metadata's
 * actor_member_id; key hashes never reach it.
 */
export interface ActivityRecord {
  id: string;
  teamId: string;
  type: string;
  actorMemberId: string | null;
  data: Record<string, unknown>;
  occurredAt: string;
  position: bigint;
}

const pick = (data: Record<string, unknown>, names: string[]) =>
  Object.fromEntries(names.filter((name) => data[name] !== undefined).map((name) => [name, data[name]]));

const RECORDS: Record<
  string,
  (data: Record<string, unknown>) => { type: string; data: Record<string, unknown> }
> = {
  // Which settings changed (names only: the values stay in the log); the reminder schedule in full.
  'team.updated': (data) => {
    const changes = (data['changes'] ?? {}) as Record<string, unknown>;
    return {
      type: 'team_settings_changed',
      data: { settings: Object.keys(changes), ...pick(changes, ['reminder_schedule']) },
    };
  },
  'team.member_added': (data) => ({
    type: 'member_added',
    data: pick(data, ['member_id', 'name', 'email', 'role']),
  }),
  'team.member_invited': (data) => ({ type: 'member_invited', data: pick(data, ['email', 'role']) }),
  'team.invitation_resent': (data) => ({
    type: 'invitation_resent',
    data: pick(data, ['invitation_id', 'email']),
  }),
  'team.invitation_revoked': (data) => ({
    type: 'invitation_revoked',
    data: pick(data, ['invitation_id', 'email']),
  }),
  'team.member_role_changed': (data) => ({
    type: 'member_role_changed',
    data: pick(data, ['member_id', 'role']),
  }),
  'team.member_removed': (data) => ({ type: 'member_removed', data: pick(data, ['member_id']) }),
  'api_key.created': (data) => ({
    type: data['replaces_api_key_id'] ? 'api_key_rotated' : 'api_key_created',
    data: pick(data, ['api_key_id', 'name', 'scopes', 'expires_at', 'replaces_api_key_id']),
  }),
  'api_key.revoked': (data) => ({ type: 'api_key_revoked', data: pick(data, ['api_key_id']) }),
  'account.signed_in': (data) => ({ type: 'signed_in', data: pick(data, ['member_id', 'second_factor']) }),
  // A sign-in with a two-factor recovery code, and how many codes the member has left.
  'account.recovery_code_used': (data) => ({
    type: 'recovery_code_used',
    data: pick(data, ['member_id', 'codes_left']),
  }),
  'account.sign_in_locked': (data) => ({
    type: 'sign_in_locked',
    data: pick(data, ['member_id', 'locked_until']),
  }),
};

export const TEAM_ACTIVITY_EVENT_TYPES = Object.keys(RECORDS);

export function toActivityRecord(event: RecordedEvent): ActivityRecord | undefined {
  const record = RECORDS[event.type];
  const data = event.data as Record<string, unknown>;
  if (!record || typeof data['team_id'] !== 'string') return undefined;
  const actor = event.metadata['actor_member_id'];
  const at =
    data['at'] ??
    data['added_at'] ??
    data['invited_at'] ??
    data['resent_at'] ??
    data['changed_at'] ??
    data['removed_at'] ??
    data['created_at'] ??
    data['revoked_at'];
  return {
    id: event.id,
    teamId: data['team_id'],
    actorMemberId: typeof actor === 'string' ? actor : null,
    occurredAt: typeof at === 'string' ? at : event.recordedAt.toISOString(),
    position: event.position,
    ...record(data),
  };
}
