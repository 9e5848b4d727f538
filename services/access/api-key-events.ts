import type { DomainEvent } from '../../shared/commands/decider.ts';
import type { Scope } from './contract/scopes.ts';

/** Stream of one API key: `api_key-<api_key_id>`. */
export const apiKeyStreamId = (apiKeyId: string) => `api_key-${apiKeyId}`;

/** `key_hash` is the SHA-256 of the secret; the secret itself is never stored. */
export type ApiKeyCreated = DomainEvent<
  'api_key.created',
  {
    api_key_id: string;
    team_id: string;
    name: string;
    scopes: Scope[];
    key_hash: string;
    expires_at: string | null;
    created_at: string;
    /** The secret's first characters (API_KEY_SHOWN_PREFIX), to tell keys apart; absent before migration 153. */
    key_prefix?: string;
    /** Set on a rotation's replacement key: the key it replaces (both stay active). */
    replaces_api_key_id?: string;
  }
>;

export type ApiKeyRevoked = DomainEvent<
  'api_key.revoked',
  { api_key_id: string; team_id: string; revoked_at: string }
>;

export type ApiKeyEvent = ApiKeyCreated | ApiKeyRevoked;
