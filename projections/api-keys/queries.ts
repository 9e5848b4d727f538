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
}

const KEY_COLUMNS = 'id, name, scopes, expires_at, created_at, revoked_at';

/** One of the team's keys; undefined for another team's or an unknown one. */
export async function teamApiKey(db: ReadClient, teamId: string, id: string): Promise<ApiKeyRow | undefined> {
  const { rows } = await db.query<ApiKeyRow>(
    `select ${KEY_COLUMNS} from api_keys where team_id = $1 and id = $2`,
    [teamId, id],
  );
  return rows[0];
}

/** The team's keys, newest first. */
export async function teamApiKeys(db: ReadClient, teamId: string): Promise<ApiKeyRow[]> {
  const { rows } = await db.query<ApiKeyRow>(
    `select ${KEY_COLUMNS} from api_keys where team_id = $1 order by created_at desc, id`,
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
