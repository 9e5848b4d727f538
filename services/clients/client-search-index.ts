import type { Pool } from '../../shared/db/pool.ts';
import { blindTokens } from '../../shared/privacy/blind-tokens.ts';
import type { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import type { SqlParams } from '../../projections/read-client.ts';

/**
 * The workspace's client search over sealed values, without opening any client
 * (docs/decisions/0017-client-search-blind-index.md): a blind index of words.
 *
 * - Words: the client's name, email and company, NFKD-decomposed with the accents
 *   dropped, lower-cased, split on everything that is not a letter or a digit
 *   ("Zoë O'Brien-Smith <zoe@Example.com>" gives zoe, o, brien, smith, zoe, example, com).
 * - Terms: a word of 1-2 characters as it is; a longer word by each of its prefixes of
 *   3 to MAX_PREFIX characters, so "lov" and "lovelace" find "Lovelace".
 * - Tokens: HMAC-SHA256 of each term under the team's search key (shared/privacy/blind-tokens.ts),
 *   in client_search_tokens (team_id, token, client_id); no plain word is stored.
 * - A search finds the clients that have, for every word of the query, a word starting
 *   with it (a 1-2 character query word: that exact word); query words longer than
 *   MAX_PREFIX count by their first MAX_PREFIX characters.
 *
 * Written in the command's transaction by create and update (writeRows), deleted by the
 * erasure; an install from before gets its index from the start-up job
 * (client-search-job.ts), which also repairs what a crash or a manual change left.
 */
export const SEARCH_PURPOSE = 'client search words';
export const MIN_PREFIX = 3;
export const MAX_PREFIX = 24;
/** Terms of one client at most (a 200-character name of 3-letter words stays well under it). */
export const MAX_TERMS = 600;
/** Words of one query at most: the rest are ignored. */
export const MAX_QUERY_WORDS = 12;

/** The normalized words of a text. */
export function searchWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The terms a client is indexed by. */
export function indexTerms(fields: ReadonlyArray<string | null | undefined>): string[] {
  const terms = new Set<string>();
  for (const field of fields) {
    for (const word of searchWords(field ?? '')) {
      const chars = [...word];
      if (chars.length < MIN_PREFIX) terms.add(word);
      for (let length = MIN_PREFIX; length <= Math.min(chars.length, MAX_PREFIX); length++) {
        terms.add(chars.slice(0, length).join(''));
      }
      if (terms.size >= MAX_TERMS) return [...terms].slice(0, MAX_TERMS);
    }
  }
  return [...terms];
}

/** The terms a query looks for (one per distinct word). */
export function queryTerms(query: string): string[] {
  const words = searchWords(query).map((word) => [...word].slice(0, MAX_PREFIX).join(''));
  return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}

/** The fields of a client the search reads. */
export interface SearchFields {
  name: string | null;
  email: string | null;
  company: string | null;
}

type IndexKeys = Pick<PersonalDataVault, 'teamIndexKey'>;

/** The tokens of a client's fields (distinct). */
export async function clientTokens(
  vault: IndexKeys,
  teamId: string,
  fields: SearchFields,
): Promise<Buffer[]> {
  return blindTokens(
    await vault.teamIndexKey(teamId),
    SEARCH_PURPOSE,
    indexTerms([fields.name, fields.email, fields.company]),
  );
}

/** The tokens of a query's words, in a hex form the SQL decodes. */
export async function queryTokens(vault: IndexKeys, teamId: string, query: string): Promise<string[]> {
  return blindTokens(await vault.teamIndexKey(teamId), SEARCH_PURPOSE, queryTerms(query)).map((token) =>
    token.toString('hex'),
  );
}

type Db = Pick<Pool, 'query'>;

/** Serializes the writers of one client's tokens (commands, the job, the erasure) until commit. */
const lockClient = (tx: Db, clientId: string) =>
  tx.query(`select pg_advisory_xact_lock(hashtextextended('client-search:' || $1::text, 0))`, [clientId]);

/**
 * The client's tokens become `tokens` (inside the command's transaction): tokens it no
 * longer has are deleted, new ones inserted, and the client is marked indexed.
 */
export async function writeSearchTokens(
  tx: Db,
  teamId: string,
  clientId: string,
  tokens: Buffer[],
): Promise<void> {
  await lockClient(tx, clientId);
  await tx.query(
    `with gone as (
       delete from client_search_tokens where client_id = $2 and not (token = any($3::bytea[]))
     ), added as (
       insert into client_search_tokens (team_id, token, client_id)
       select $1, token, $2 from unnest($3::bytea[]) as token
       on conflict do nothing
     )
     insert into client_search_documents (client_id, team_id) values ($2, $1)
     on conflict (client_id) do update set indexed_at = now()`,
    [teamId, clientId, tokens],
  );
}

/**
 * Indexes a client the index does not have yet (the start-up job): nothing is written when
 * a command indexed it meanwhile or its key is erased.
 */
export async function indexMissingClient(
  tx: Db,
  teamId: string,
  clientId: string,
  tokens: Buffer[],
): Promise<boolean> {
  await lockClient(tx, clientId);
  const { rows } = await tx.query<{ todo: boolean }>(
    `select not exists (select 1 from client_search_documents where client_id = $1)
        and exists (select 1 from personal_data_keys where subject_id = $1 and key is not null) as todo`,
    [clientId],
  );
  if (!rows[0]?.todo) return false;
  await writeSearchTokens(tx, teamId, clientId, tokens);
  return true;
}

/** The erasure: every token of the client, and its mark, are deleted. */
export async function deleteSearchTokens(tx: Db, teamId: string, clientId: string): Promise<void> {
  await lockClient(tx, clientId);
  await tx.query(
    `with gone as (delete from client_search_tokens where team_id = $1 and client_id = $2)
     delete from client_search_documents where team_id = $1 and client_id = $2`,
    [teamId, clientId],
  );
}

/**
 * A condition on `clients` (the table unaliased), its values numbered in `params`: the
 * client has a token of every query term. One `exists` per token (a primary-key probe
 * each) with the token as a parameter of an unnamed statement, planned with its value, so
 * the planner sees how common each token is: a rare one leads, a common one is probed or
 * read along the newest-first index (10,000 clients: a few ms, also when all match).
 * `tokens` are distinct (queryTokens), at most MAX_QUERY_WORDS.
 */
export const matchesSearch = (params: SqlParams, teamId: string, tokens: string[]): string =>
  tokens
    .map(
      (hex) => `exists (
        select 1 from client_search_tokens s
        where s.team_id = ${params.add(teamId)} and s.token = decode(${params.add(hex)}, 'hex')
          and s.client_id = clients.id)`,
    )
    .join(' and ');

/**
 * The same match as a set of client ids, for a condition on another table's client
 * (`o.client_id in (…)`): the first token's clients, each probed for the others. The
 * planner hashes the set once and reads the other table off a covering index; as a
 * correlated `exists` beside an OR it read every row from the heap (bench part 12, search).
 * `tokens` as for matchesSearch, at least one.
 */
export const clientIdsMatchingSearch = (params: SqlParams, teamId: string, tokens: string[]): string => {
  const [first, ...others] = tokens;
  const team = params.add(teamId);
  const rest = others.map(
    (hex) => `and exists (
        select 1 from client_search_tokens s
        where s.team_id = ${team} and s.token = decode(${params.add(hex)}, 'hex')
          and s.client_id = matched.client_id)`,
  );
  return `select matched.client_id from client_search_tokens matched
      where matched.team_id = ${team} and matched.token = decode(${params.add(first!)}, 'hex') ${rest.join(' ')}`;
};
