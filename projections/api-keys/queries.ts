import type { Scope } from '../../services/access/contract/scopes.ts';
import type { ReadClient } from '../read-client.ts';

/**
 * The reads other code may run on the api_keys read model (./projection.ts writes it),
 * through the read client (../read-client.ts).
 */

/** A key as the workspace lists it (never its hash). */
export interface ApiKeyRow {
  id: string;
  name: string;
  scopes: Scope[];
  expires_at: Date | null;
  created_at: Date;
  revoked_at: Date | null;
  /** The secret's first characters (null for a key from before they were recorded). */
  key_prefix: string | null;
  /** Who created it: the member's name (null: the operator API, or the member left and was erased). */
  created_by_name: string | null;
  /** When it last authenticated a request, to the minute (api_key_usage); null: never. */
  last_used_at: Date | null;
}

const KEY_COLUMNS = `k.id, k.name, k.scopes, k.expires_at, k.created_at, k.revoked_at, k.key_prefix,
  (select m.name from team_members m where m.id = k.created_by_member_id and m.team_id = k.team_id) as created_by_name,
  (select u.last_used_at from api_key_usage u where u.api_key_id = k.id) as last_used_at`;

/** One of the team's keys; undefined for another team's or an unknown one. */
export async function teamApiKey(db: ReadClient, teamId: string, id: string): Promise<ApiKeyRow | undefined> {
  const { rows } = await db.query<ApiKeyRow>(
    `select ${KEY_COLUMNS} from api_keys k where k.team_id = $1 and k.id = $2`,
    [teamId, id],
  );
  return rows[0];
}

/** The team's keys, newest first. */
export async function teamApiKeys(db: ReadClient, teamId: string): Promise<ApiKeyRow[]> {
  const { rows } = await db.query<ApiKeyRow>(
    `select ${KEY_COLUMNS} from api_keys k where k.team_id = $1 order by k.created_at desc, k.id`,
    [teamId],
  );
  return rows;
}

/** The key of a secret's hash with its team's plan, as the public API checks it at every request. */
export interface KeyByHash {
  id: string;
  team_id: string;
  scopes: string[];
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  plan: string;
}

/** One statement, named: every request runs it, so PostgreSQL plans it once per connection. */
const KEY_BY_HASH = {
  name: 'public_api_key_by_hash',
  text: `select k.id, k.team_id, k.scopes, k.expires_at, k.revoked_at, t.plan
         from api_keys k join teams t on t.id = k.team_id
         where k.key_hash = $1`,
};

export async function apiKeyByHash(db: ReadClient, keyHash: string): Promise<KeyByHash | undefined> {
  const { rows } = await db.query<KeyByHash>({ ...KEY_BY_HASH, values: [keyHash] });
  return rows[0];
}
