import { z } from 'zod';
import type { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import { openJsonValues, openTextColumns } from '../../shared/privacy/sealed-columns.ts';
import { matchesSearch } from '../../services/clients/client-search-index.ts';
import { cappedCountOf, countOf, parsedRow, parsedRows, SqlParams, type ReadClient } from '../read-client.ts';

/**
 * Reads of the clients read model (projection.ts) for the public API and the workspace:
 * one client, one page of clients. Every read is scoped by the team: another team's client
 * reads as an unknown one. Erased clients are never shown.
 */

export const clientSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  company: z.string().nullable(),
  phone: z.string().nullable(),
  notes: z.string().nullable(),
  custom_fields: z.record(z.unknown()),
  created_at: z.string().describe('ISO 8601'),
});

export type ClientResource = z.infer<typeof clientSchema>;

/**
 * A clients row as node-postgres reads it: personal fields sealed (shared/privacy/sealed-columns.ts),
 * its id unchecked and its time a Date.
 */
const clientRow = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  company: z.string().nullable(),
  phone: z.string().nullable(),
  notes: z.string().nullable(),
  custom_fields: z.unknown(),
  created_at: z.date(),
});
type ClientRow = z.infer<typeof clientRow>;
type OpenedClientRow = Omit<ClientRow, 'name' | 'email' | 'custom_fields'> & {
  name: string;
  email: string;
  custom_fields: Record<string, unknown>;
};

export type ClientOpener = Pick<PersonalDataVault, 'openAll'>;

/**
 * The rows with their personal fields opened (one key read for the page); a row whose key is
 * gone (erased, its erasure not yet projected) is left out, as an erased client is.
 */
async function openClients(vault: ClientOpener, rows: readonly ClientRow[]): Promise<OpenedClientRow[]> {
  const [texts, customFields] = await Promise.all([
    openTextColumns(vault, rows, ['name', 'email', 'company', 'phone', 'notes']),
    openJsonValues(
      vault,
      rows.map((row) => row.custom_fields),
    ),
  ]);
  return texts.flatMap((row, index) =>
    row.name === null || row.email === null
      ? []
      : [
          {
            ...row,
            name: row.name,
            email: row.email,
            custom_fields: (customFields[index] ?? {}) as Record<string, unknown>,
          },
        ],
  );
}

const toResource = (row: OpenedClientRow): ClientResource => ({
  id: row.id,
  name: row.name,
  email: row.email,
  company: row.company,
  phone: row.phone,
  notes: row.notes,
  custom_fields: row.custom_fields,
  created_at: new Date(row.created_at).toISOString(),
});

const CLIENT_COLUMNS = 'id, name, email, company, phone, notes, custom_fields, created_at';
/** Erased clients are never shown (client_is_erased, infra/migrations/082_client_is_erased.sql). */
const VISIBLE_CLIENTS = 'not client_is_erased(erased_at, email)';

/** One client of the team; undefined when unknown, another team's or erased. */
export async function findClient(
  db: ReadClient,
  vault: ClientOpener,
  teamId: string,
  id: string,
): Promise<ClientResource | undefined> {
  const row = await parsedRow(
    db,
    clientRow,
    `select ${CLIENT_COLUMNS} from clients
     where id = $1 and team_id = $2 and ${VISIBLE_CLIENTS}`,
    [id, teamId],
  );
  const [opened] = row ? await openClients(vault, [row]) : [];
  return opened ? toResource(opened) : undefined;
}

/**
 * Which clients a page holds: all of the team's, the one whose email has this blind index
 * (email_hash), or those holding every search token (client-search-index.ts).
 */
export type ClientMatch = { emailHash: string } | { searchTokens: string[] } | undefined;

function matching(params: SqlParams, teamId: string, match: ClientMatch): string {
  if (match === undefined) return '';
  if ('emailHash' in match) return `and email_hash = ${params.add(match.emailHash)}`;
  return `and ${matchesSearch(params, teamId, match.searchTokens)}`;
}

/**
 * One page of the team's clients, newest first, with the total: exact (the public API), or
 * counted up to `countUpTo` (the workspace, decision 0104).
 */
export async function listClients(
  db: ReadClient,
  vault: ClientOpener,
  teamId: string,
  {
    limit,
    offset,
    match,
    countUpTo,
  }: { limit: number; offset: number; match?: ClientMatch; countUpTo?: number },
): Promise<{ clients: ClientResource[]; total: number; total_capped: boolean }> {
  const params = new SqlParams();
  const where = `team_id = ${params.add(teamId)} and ${VISIBLE_CLIENTS} ${matching(params, teamId, match)}`;
  const whereValues = [...params.values];
  const [rows, total] = await Promise.all([
    parsedRows(
      db,
      clientRow,
      `select ${CLIENT_COLUMNS} from clients where ${where}
       order by created_at desc, position desc
       limit ${params.add(limit)} offset ${params.add(offset)}`,
      params.values,
    ),
    countUpTo === undefined
      ? countOf(db, `select count(*)::int as count from clients where ${where}`, whereValues).then(
          (count) => ({ count, capped: false }),
        )
      : cappedCountOf(db, `from clients where ${where}`, whereValues, countUpTo),
  ]);
  return {
    clients: (await openClients(vault, rows)).map(toResource),
    total: total.count,
    total_capped: total.capped,
  };
}

/**
 * A client's language, date format and time zone, and whether the client chose the first
 * two (docs/decisions/0078): the workspace shows and edits them; the public API's client
 * keeps them input-only.
 */
export const clientSettingsSchema = z.object({
  locale: z.string().describe("the client's language (the team's when not chosen)"),
  date_format: z.string().describe("the client's date format (the team's when not chosen)"),
  timezone: z.string().describe('an IANA time zone name'),
  locale_chosen: z
    .boolean()
    .describe("false: none was chosen; the form follows the browser's language, else the team's"),
  date_format_chosen: z.boolean().describe("false: none was chosen; dates follow the form's language"),
});
export type ClientSettings = z.infer<typeof clientSettingsSchema>;

/** The settings of a team's client; undefined when unknown or another team's. */
export async function clientSettings(
  db: ReadClient,
  teamId: string,
  id: string,
): Promise<ClientSettings | undefined> {
  return parsedRow(
    db,
    clientSettingsSchema,
    `select locale, date_format, timezone, locale_chosen, date_format_chosen from clients
     where id = $1 and team_id = $2`,
    [id, teamId],
  );
}
