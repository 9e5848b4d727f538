import { DomainError, type Decider } from '../../shared/commands/decider.ts';
import { assertStorable, assertStorableInstant } from '../../shared/validation/safe-text.ts';
import type { ApiKeyCreated, ApiKeyEvent } from './api-key-events.ts';

export type ApiKeyState =
  | { status: 'none' }
  | { status: 'active' | 'revoked'; id: string; team_id: string; expires_at: string | null };

/** Every command carries the service clock's time in `metadata.now`. */
export type ApiKeyCommand = (
  | {
      type: 'CreateApiKey';
      /** The created event's data; its time comes from `metadata.now`. */
      data: Omit<ApiKeyCreated['data'], 'created_at'>;
    }
  | { type: 'RevokeApiKey'; data: { team_id: string } }
) & { metadata: { now: Date } };

/** An empty or missing name is saved as `Default` (client-onboarding-api.md, API key). */
export const DEFAULT_API_KEY_NAME = 'Default';

function createApiKey(
  command: Extract<ApiKeyCommand, { type: 'CreateApiKey' }>,
  state: ApiKeyState,
): ApiKeyEvent[] {
  if (state.status !== 'none') throw new DomainError('api_key_exists', 'API key already exists');
  const { name, scopes, ...data } = command.data;
  if (scopes.length === 0) throw new DomainError('scopes_required', 'An API key needs at least one scope');
  const event: ApiKeyCreated = {
    type: 'api_key.created',
    data: {
      ...data,
      name: name.trim() === '' ? DEFAULT_API_KEY_NAME : name.trim(),
      scopes: [...new Set(scopes)],
      created_at: command.metadata.now.toISOString(),
    },
  };
  return [event];
}

/** Revoking a revoked key decides nothing (a retried DELETE succeeds again). */
function revokeApiKey(
  command: Extract<ApiKeyCommand, { type: 'RevokeApiKey' }>,
  state: ApiKeyState,
): ApiKeyEvent[] {
  if (state.status === 'none' || state.team_id !== command.data.team_id) {
    throw new DomainError('api_key_not_found', 'API key not found');
  }
  if (state.status === 'revoked') return [];
  return [
    {
      type: 'api_key.revoked',
      data: { api_key_id: state.id, team_id: state.team_id, revoked_at: command.metadata.now.toISOString() },
    },
  ];
}

function decide(command: ApiKeyCommand, state: ApiKeyState): ApiKeyEvent[] {
  assertStorable(command.data);
  if (command.type === 'CreateApiKey') assertStorableInstant(command.data.expires_at, 'expires_at');
  switch (command.type) {
    case 'CreateApiKey':
      return createApiKey(command, state);
    case 'RevokeApiKey':
      return revokeApiKey(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`Unknown API key command ${JSON.stringify(unknown)}`);
    }
  }
}

function evolve(state: ApiKeyState, event: ApiKeyEvent): ApiKeyState {
  switch (event.type) {
    case 'api_key.created':
      return {
        status: 'active',
        id: event.data.api_key_id,
        team_id: event.data.team_id,
        expires_at: event.data.expires_at,
      };
    case 'api_key.revoked':
      return state.status === 'none' ? state : { ...state, status: 'revoked' };
    default:
      return state;
  }
}

export const apiKeyDecider: Decider<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};
