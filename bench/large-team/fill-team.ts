import { clientTokens } from '../../services/clients/client-search-index.ts';
import type { Pool } from '../../shared/db/pool.ts';
import { PersonalDataVault, sealWithKey } from '../../shared/privacy/personal-data-vault.ts';
import type { Phase } from '../lib/progress.ts';
import { runConcurrently } from '../lib/stats.ts';
import type { LogRow, OperationalRows, TeamHistory } from './team-history.ts';

/** Onboardings per statement: ~11,000 events, well under the 65,536 a transaction may number. */
const CHUNK_ONBOARDINGS = 1200;
const CHUNK_CLIENTS = 5000;
const CHUNK_TOKENS = 50_000;
const WRITERS = 2;

/**
 * Writes a team's history straight into the adapter's tables in the adapter's format, as
 * bench/rebuild/fill-log.ts does (one statement and one transaction per chunk, `position =
 * xid * 65536 + index`, event_streams rows), plus what the service writes beside the log
 * when it runs the same commands: each client's data key (personal_data_keys, sealed with
 * the KEK), each first send's row in onboarding_send_usage, and the invites of the last 30
 * days in mail_outbox (sealed with the client's key). The read models come afterwards from
 * the projections' own rebuild; the search index from `indexClients`.
 */
export async function fillTeam(pool: Pool, history: TeamHistory, phase: Phase): Promise<number> {
  const { spec, clients } = history;
  let written = 0;
  for (let from = 0; from < clients.length; from += CHUNK_CLIENTS) {
    const chunk = clients.slice(from, from + CHUNK_CLIENTS);
    await pool.query(
      `insert into personal_data_keys (subject_id, team_id, key, kek_id)
       select subject_id, $2, decode(key, 'base64'), kek_id
       from json_to_recordset($1::json) as k(subject_id uuid, key text, kek_id text)`,
      [
        JSON.stringify(
          chunk.map((client) => ({
            subject_id: client.id,
            key: client.wrapped.key.toString('base64'),
            kek_id: client.wrapped.kekId,
          })),
        ),
        spec.teamId,
      ],
    );
    const appended = await appendRows(pool, history.clientRows(from, from + CHUNK_CLIENTS));
    written += appended;
    phase.update(written);
  }
  const chunks = Math.ceil(spec.onboardings / CHUNK_ONBOARDINGS);
  await runConcurrently(chunks, WRITERS, async (chunk) => {
    const from = chunk * CHUNK_ONBOARDINGS;
    const { log, operational } = history.onboardingRows(from, from + CHUNK_ONBOARDINGS);
    const appended = await appendRows(pool, log);
    written += appended;
    await writeOperational(pool, history, operational);
    phase.update(written);
  });
  return written;
}

/** One transaction: the events numbered as an append numbers them, and their streams' rows. */
async function appendRows(pool: Pool, rows: LogRow[]): Promise<number> {
  await pool.query(
    `with e as (
       select * from rows from (
         json_to_recordset($1::json)
           as (event_id uuid, stream_id text, revision bigint, type text, data jsonb, metadata jsonb)
       ) with ordinality as e(event_id, stream_id, revision, type, data, metadata, ord)
     ),
     inserted as (
       insert into events (position, transaction_id, event_id, stream_id, revision, type, data, metadata)
       select pg_current_xact_id()::text::bigint * 65536 + e.ord - 1, pg_current_xact_id(),
              e.event_id, e.stream_id, e.revision, e.type, e.data, e.metadata
       from e
     )
     insert into event_streams (stream_id, revision)
     select stream_id, max(revision) from e group by stream_id`,
    [JSON.stringify(rows)],
  );
  return rows.length;
}

const inviteText = (name: string, link: string) =>
  `Hello ${name},\n\nwe need a few details from you to get started. Please fill in our Client intake form:\n\n` +
  `${link}\n\nIt takes about ten minutes; your answers are saved as you type, so you can stop and come back ` +
  `whenever you like. If anything is unclear, just reply to this email.\n\nThank you,\nThe team\n`;

const inviteHtml = (name: string, link: string) =>
  `<!doctype html><html><body style="margin:0;background:#f4f5f7;font-family:system-ui,sans-serif">` +
  `<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">` +
  `<table role="presentation" width="560" style="background:#fff;border-radius:8px;padding:32px">` +
  `<tr><td><p>Hello ${name},</p><p>we need a few details from you to get started. Please fill in our ` +
  `Client intake form.</p><p><a href="${link}" style="display:inline-block;background:#0055aa;color:#fff;` +
  `padding:12px 20px;border-radius:6px;text-decoration:none">Open the form</a></p><p>It takes about ten ` +
  `minutes; your answers are saved as you type, so you can stop and come back whenever you like.</p>` +
  `<p>Thank you,<br>The team</p></td></tr></table></td></tr></table></body></html>`.repeat(2);

/** The rows a first send writes beside its events: the month's count and the invite (sealed). */
async function writeOperational(pool: Pool, history: TeamHistory, rows: OperationalRows[]): Promise<void> {
  const { teamId } = history.spec;
  const byId = new Map(history.clients.map((client) => [client.id, client]));
  const usage = rows.flatMap((row) => (row.usage ? [row.usage] : []));
  const invites = rows.flatMap((row) => {
    if (!row.invite) return [];
    const client = byId.get(row.invite.client_id)!;
    const seal = (value: string) => JSON.stringify(sealWithKey(client.key, client.id, value));
    const link = `https://onboarding.example/f/${row.invite.event_id.replace(/-/g, '')}`;
    return [
      {
        ...row.invite,
        to: seal(client.email),
        subject: seal('Please complete Client intake'),
        text: seal(inviteText(client.name, link)),
        html: seal(inviteHtml(client.name, link)),
      },
    ];
  });
  await pool.query(
    `with usage as (
       insert into onboarding_send_usage (onboarding_id, team_id, usage_month, counted_at, send_number)
       select onboarding_id, $2, usage_month, counted_at, 1
       from json_to_recordset($1::json) as u(onboarding_id uuid, usage_month text, counted_at timestamptz)
     )
     insert into mail_outbox (id, team_id, kind, "to", from_name, subject, text, html, onboarding_id, event_id,
                              created_at, status, client_id)
     select gen_random_uuid(), $2, 'invite', "to", 'The team', subject, text, html, onboarding_id, event_id,
            created_at, 'queued', client_id
     from json_to_recordset($3::json) as m(onboarding_id uuid, client_id uuid, event_id uuid,
       created_at timestamptz, "to" text, subject text, text text, html text)`,
    [JSON.stringify(usage), teamId, JSON.stringify(invites)],
  );
}

/**
 * What client create writes in its transaction besides the event: the search index's
 * tokens (services/clients/client-search-index.ts clientTokens, the service's own words and
 * keyed hashes) and the email index (client_email_index, from the read model's blind index
 * as migration 134 fills it). Written set-based once the clients read model exists.
 */
export async function indexClients(pool: Pool, history: TeamHistory): Promise<number> {
  const vault = new PersonalDataVault(pool);
  const { teamId } = history.spec;
  let rows: { client_id: string; token: string }[] = [];
  let total = 0;
  const flush = async () => {
    await pool.query(
      `insert into client_search_tokens (team_id, token, client_id)
       select $2, decode(token, 'hex'), client_id
       from json_to_recordset($1::json) as t(client_id uuid, token text)
       on conflict do nothing`,
      [JSON.stringify(rows), teamId],
    );
    total += rows.length;
    rows = [];
  };
  for (const client of history.clients) {
    const tokens = await clientTokens(vault, teamId, client);
    for (const token of tokens) rows.push({ client_id: client.id, token: token.toString('hex') });
    if (rows.length >= CHUNK_TOKENS) await flush();
  }
  if (rows.length > 0) await flush();
  await pool.query(
    `insert into client_search_documents (client_id, team_id)
     select id, team_id from clients where team_id = $1 on conflict do nothing`,
    [teamId],
  );
  await pool.query(
    `insert into client_email_index (team_id, email_index, client_id, reserved_at)
     select distinct on (team_id, email_hash) team_id, email_hash, id, created_at
     from clients
     where team_id = $1 and email_hash is not null and not client_is_erased(erased_at, email)
     order by team_id, email_hash, created_at, position
     on conflict do nothing`,
    [teamId],
  );
  return total;
}
