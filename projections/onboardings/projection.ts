import type { OnboardingEvent } from '../../services/onboardings/onboarding-events.ts';
import {
  foldOnboarding,
  onboardingKey,
  onboardingsBatch,
  ONBOARDINGS_HANDLED,
  type LinkRow,
  type OnboardingRow,
  type OnboardingsBatch,
} from './fold.ts';
import { liveTable, readModelProjection, streamsBegunIn } from '../../shared/projections/projection.ts';
import { copyRows } from '../../shared/db/copy-rows.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { PoolClient } from '../../shared/db/pool.ts';

/**
 * onboardings and onboarding_links (infra/migrations/030_onboardings.sql) from the
 * onboarding streams: the SQL half of the read model; fold.ts folds the events.
 * due_at is always due_date as timestamptz and is derived in the upsert. Every row follows
 * one onboarding's stream, so the read model is applied inline with the PostgreSQL store
 * (shared/projections/inline-projections.ts) and by the runner, which skips what it has.
 */
const onboardingIdOf = (event: RecordedEvent) => (event.data as { onboarding_id: string }).onboarding_id;

export const onboardingsProjection = readModelProjection<OnboardingsBatch>({
  name: 'onboardings',
  tables: ['onboardings', 'onboarding_links'],
  replayIndexes: ['onboarding_links_onboarding'],
  canHandle: ONBOARDINGS_HANDLED,

  async load(client, events, table) {
    const ids = new Set<string>();
    const tokens = new Set<string>();
    const begun =
      table === liveTable
        ? new Set<string>()
        : streamsBegunIn(events, (event) => onboardingKey(onboardingIdOf(event)));
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as OnboardingEvent;
      const key = onboardingKey(event.data.onboarding_id);
      if (begun.has(key)) continue;
      ids.add(key);
      if (event.type === 'onboarding_created' || event.type === 'onboarding.sent') {
        tokens.add(event.data.token_hash);
      }
    }
    // One round trip for both tables.
    const loaded = await client.query<{ rows: OnboardingRow[]; links: LinkRow[] }>(
      `select
         coalesce((select json_agg(o) from (
           select id, team_id, client_id, template_id, template_source, template_name,
                  template_snapshot::text as template_snapshot, status, progress_pct,
                  created_at::text as created_at, due_date, due_on, due_timezone, expires_at, assigned_to,
                  archived_at::text as archived_at, client_erased_at::text as client_erased_at, send_count,
                  documented_send, last_sent_at::text as last_sent_at, updated_at::text as updated_at, position::text as position,
                  stream_revision::text as stream_revision, review_fields::text as review_fields
           from ${table('onboardings')} where id = any($1::uuid[])) o), '[]'::json) as rows,
         coalesce((select json_agg(l) from (
           select token_hash, onboarding_id, team_id, send_number, issued_at::text as issued_at,
                  deactivated_at::text as deactivated_at
           from ${table('onboarding_links')} where onboarding_id = any($1::uuid[]) or token_hash = any($2::text[])) l),
           '[]'::json) as links`,
      [[...ids], [...tokens]],
    );
    const batch = onboardingsBatch(loaded.rows[0]!.rows, loaded.rows[0]!.links);
    if (table !== liveTable)
      batch.stored = { rows: new Set(batch.rows.keys()), links: new Set(batch.links.keys()) };
    return batch;
  },

  fold: foldOnboarding,

  inline: {
    appliedRevision(batch, events) {
      return BigInt(batch.rows.get(onboardingKey(onboardingIdOf(events[0]!)))?.stream_revision ?? -1);
    },
    emptyBatch: () => onboardingsBatch([], []),
    async unapplied(client, events, table) {
      const ids = [...new Set(events.map((event) => onboardingKey(onboardingIdOf(event))))];
      const { rows } = await client.query<{ id: string; stream_revision: string }>(
        `select id, stream_revision::text as stream_revision from ${table('onboardings')} where id = any($1::uuid[])`,
        [ids],
      );
      const applied = new Map(rows.map((row) => [onboardingKey(row.id), BigInt(row.stream_revision)]));
      return events.filter(
        (event) => event.revision > (applied.get(onboardingKey(onboardingIdOf(event))) ?? -1n),
      );
    },
  },

  // One statement for both tables: a command applying inline pays one round trip.
  async persist(client, batch, table) {
    let rows = [...batch.dirtyRows];
    let links = [...batch.dirtyLinks];
    if (batch.stored) {
      const { stored } = batch;
      await copyNew(
        client,
        table,
        rows.filter((key) => !stored.rows.has(key)).map((key) => batch.rows.get(key)!),
        links
          .filter((tokenHash) => !stored.links.has(tokenHash))
          .map((tokenHash) => batch.links.get(tokenHash)!),
      );
      rows = rows.filter((key) => stored.rows.has(key));
      links = links.filter((tokenHash) => stored.links.has(tokenHash));
    }
    if (rows.length === 0 && links.length === 0) return;
    await client.query(
      `with upserted_onboardings as (
         insert into ${table('onboardings')}
           (id, team_id, client_id, template_id, template_source, template_name, template_snapshot,
            status, progress_pct, created_at, due_date, due_at, due_on, due_timezone, expires_at,
            assigned_to, archived_at, client_erased_at, send_count, documented_send, last_sent_at, updated_at,
            position, stream_revision, review_fields)
         select id, team_id, client_id, template_id, template_source, template_name, template_snapshot::jsonb,
                status, progress_pct, created_at, due_date, due_date::timestamptz, due_on, due_timezone, expires_at,
                assigned_to, archived_at, client_erased_at, send_count, documented_send, last_sent_at, updated_at,
                position, stream_revision, review_fields::jsonb
         from jsonb_to_recordset($1::jsonb) as r(
           id uuid, team_id uuid, client_id uuid, template_id uuid, template_source text, template_name text,
           template_snapshot text, status text, progress_pct integer, created_at timestamptz, due_date text,
           due_on text, due_timezone text, expires_at text, assigned_to uuid, archived_at timestamptz,
           client_erased_at timestamptz, send_count integer, documented_send integer, last_sent_at timestamptz,
           updated_at timestamptz, position bigint, stream_revision bigint, review_fields text)
         on conflict (id) do update
           set status = excluded.status, progress_pct = excluded.progress_pct,
               due_date = excluded.due_date, due_at = excluded.due_at, due_on = excluded.due_on,
               due_timezone = excluded.due_timezone, assigned_to = excluded.assigned_to,
               archived_at = excluded.archived_at, client_erased_at = excluded.client_erased_at,
               send_count = excluded.send_count, documented_send = excluded.documented_send,
               last_sent_at = excluded.last_sent_at,
               expires_at = excluded.expires_at, updated_at = excluded.updated_at,
               template_name = excluded.template_name, template_snapshot = excluded.template_snapshot,
               stream_revision = excluded.stream_revision, review_fields = excluded.review_fields
         returning 1
       ), upserted_links as (
         insert into ${table('onboarding_links')} (token_hash, onboarding_id, team_id, send_number, issued_at, deactivated_at)
         select token_hash, onboarding_id, team_id, send_number, issued_at, deactivated_at
         from jsonb_to_recordset($2::jsonb) as r(
           token_hash text, onboarding_id uuid, team_id uuid, send_number integer,
           issued_at timestamptz, deactivated_at timestamptz)
         on conflict (token_hash) do update set deactivated_at = excluded.deactivated_at
         returning 1
       )
       select (select count(*) from upserted_onboardings) as onboardings, (select count(*) from upserted_links) as links`,
      [
        JSON.stringify(rows.map((key) => batch.rows.get(key)!)),
        JSON.stringify(links.map((tokenHash) => batch.links.get(tokenHash)!)),
      ],
    );
  },
});

/**
 * A rebuild writes the rows its batch made (none stored before it) with COPY
 * (shared/db/copy-rows.ts); due_at is due_date read as timestamptz, as the upsert derives it.
 */
async function copyNew(
  client: PoolClient,
  table: (name: string) => string,
  rows: OnboardingRow[],
  links: LinkRow[],
): Promise<void> {
  await copyRows(
    client,
    table('onboardings'),
    ONBOARDING_COLUMNS,
    rows.map((row) => ({ ...row, due_at: row.due_date })),
  );
  await copyRows(client, table('onboarding_links'), LINK_COLUMNS, links);
}

const ONBOARDING_COLUMNS = [
  'id',
  'team_id',
  'client_id',
  'template_id',
  'template_source',
  'template_name',
  'template_snapshot',
  'status',
  'progress_pct',
  'created_at',
  'due_date',
  'due_at',
  'due_on',
  'due_timezone',
  'expires_at',
  'assigned_to',
  'archived_at',
  'client_erased_at',
  'send_count',
  'documented_send',
  'last_sent_at',
  'updated_at',
  'position',
  'stream_revision',
  'review_fields',
] as const;
const LINK_COLUMNS = [
  'token_hash',
  'onboarding_id',
  'team_id',
  'send_number',
  'issued_at',
  'deactivated_at',
] as const;
