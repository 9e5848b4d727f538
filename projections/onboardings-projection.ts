import {
  isOnboardingEventType,
  type OnboardingEvent,
} from '../shared/domain/onboarding/onboarding-events.ts';
import type { Projection } from './projection.ts';

/**
 * onboardings and onboarding_links (infra/migrations/030_onboardings.sql) from the
 * onboarding streams: event data only, so a rebuild gives the same rows.
 *
 * Batch-style: the rows a batch touches are loaded with one select per table, the events
 * are folded into them in memory in log order, and each table gets one multi-row upsert.
 * Timestamps, positions and jsonb travel as PostgreSQL text, so rows round-trip exactly;
 * due_at is always due_date as timestamptz and is derived in the upsert.
 */

interface OnboardingRow {
  id: string;
  team_id: string;
  client_id: string;
  template_id: string;
  template_source: string;
  template_name: string;
  /** jsonb as text */
  template_snapshot: string;
  status: string;
  progress_pct: number;
  created_at: string;
  due_date: string | null;
  due_on: string | null;
  due_timezone: string | null;
  expires_at: string | null;
  assigned_to: string | null;
  archived_at: string | null;
  client_erased_at: string | null;
  send_count: number;
  last_sent_at: string | null;
  updated_at: string;
  position: string;
}

interface LinkRow {
  token_hash: string;
  onboarding_id: string;
  team_id: string;
  send_number: number;
  issued_at: string;
  deactivated_at: string | null;
}

const uuidKey = (id: string) => id.toLowerCase();

export const onboardingsProjection: Projection = {
  name: 'onboardings',
  tables: ['onboardings', 'onboarding_links'],
  async apply(client, events, table) {
    const onboardings = table('onboardings');
    const links = table('onboarding_links');

    const relevant = events.filter((recorded) => isOnboardingEventType(recorded.type));
    if (relevant.length === 0) return;

    const ids = new Set<string>();
    const tokens = new Set<string>();
    for (const recorded of relevant) {
      const event = { type: recorded.type, data: recorded.data } as OnboardingEvent;
      ids.add(uuidKey(event.data.onboarding_id));
      if (event.type === 'onboarding_created' || event.type === 'onboarding.sent') {
        tokens.add(event.data.token_hash);
      }
    }

    const loadedOnboardings = await client.query<OnboardingRow>(
      `select id, team_id, client_id, template_id, template_source, template_name,
              template_snapshot::text as template_snapshot, status, progress_pct,
              created_at::text as created_at, due_date, due_on, due_timezone, expires_at, assigned_to,
              archived_at::text as archived_at, client_erased_at::text as client_erased_at, send_count,
              last_sent_at::text as last_sent_at, updated_at::text as updated_at, position::text as position
       from ${onboardings} where id = any($1::uuid[])`,
      [[...ids]],
    );
    const loadedLinks = await client.query<LinkRow>(
      `select token_hash, onboarding_id, team_id, send_number, issued_at::text as issued_at,
              deactivated_at::text as deactivated_at
       from ${links} where onboarding_id = any($1::uuid[]) or token_hash = any($2::text[])`,
      [[...ids], [...tokens]],
    );

    const rows = new Map<string, OnboardingRow>(loadedOnboardings.rows.map((row) => [uuidKey(row.id), row]));
    const dirtyRows = new Set<string>();
    const linkRows = new Map<string, LinkRow>(loadedLinks.rows.map((row) => [row.token_hash, row]));
    /** token hashes per onboarding, in no particular order */
    const linksOf = new Map<string, string[]>();
    const indexLink = (row: LinkRow) => {
      const key = uuidKey(row.onboarding_id);
      const list = linksOf.get(key);
      if (list) list.push(row.token_hash);
      else linksOf.set(key, [row.token_hash]);
    };
    for (const row of loadedLinks.rows) indexLink(row);
    const dirtyLinks = new Set<string>();

    const update = (id: string, changes: Partial<OnboardingRow>) => {
      const key = uuidKey(id);
      const row = rows.get(key);
      if (!row) return;
      Object.assign(row, changes);
      dirtyRows.add(key);
    };
    const deactivateLinks = (id: string, at: string) => {
      for (const tokenHash of linksOf.get(uuidKey(id)) ?? []) {
        const link = linkRows.get(tokenHash)!;
        if (link.deactivated_at !== null) continue;
        link.deactivated_at = at;
        dirtyLinks.add(tokenHash);
      }
    };
    const insertLink = (row: LinkRow) => {
      if (linkRows.has(row.token_hash)) return;
      linkRows.set(row.token_hash, row);
      indexLink(row);
      dirtyLinks.add(row.token_hash);
    };

    for (const recorded of relevant) {
      const event = { type: recorded.type, data: recorded.data } as OnboardingEvent;
      const id = event.data.onboarding_id;
      switch (event.type) {
        case 'onboarding_created': {
          const { data } = event;
          const key = uuidKey(id);
          if (!rows.has(key)) {
            rows.set(key, {
              id,
              team_id: data.team_id,
              client_id: data.client_id,
              template_id: data.template_id,
              template_source: data.template_source,
              template_name: data.template_snapshot.name,
              template_snapshot: JSON.stringify(data.template_snapshot),
              status: 'draft',
              progress_pct: 0,
              created_at: data.created_at,
              due_date: data.due_date ?? null,
              due_on: data.due_on ?? null,
              due_timezone: data.due_timezone ?? null,
              expires_at: data.expires_at ?? null,
              assigned_to: null,
              archived_at: null,
              client_erased_at: null,
              send_count: 0,
              last_sent_at: null,
              updated_at: data.created_at,
              position: String(recorded.position),
            });
            dirtyRows.add(key);
          }
          insertLink({
            token_hash: data.token_hash,
            onboarding_id: id,
            team_id: data.team_id,
            send_number: 0,
            issued_at: data.created_at,
            deactivated_at: null,
          });
          break;
        }
        case 'onboarding_updated': {
          const { changes, updated_at } = event.data;
          if ('due_date' in changes) {
            update(id, {
              due_date: changes.due_date ?? null,
              due_on: changes.due_on ?? null,
              due_timezone: changes.due_timezone ?? null,
            });
          }
          if (changes.assigned_to !== undefined) update(id, { assigned_to: changes.assigned_to });
          update(id, { updated_at });
          break;
        }
        case 'onboarding_marked_in_progress':
          update(id, { status: 'in_progress', updated_at: event.data.marked_at });
          break;
        case 'onboarding_cancelled':
          update(id, { status: 'cancelled', updated_at: event.data.cancelled_at });
          deactivateLinks(id, event.data.cancelled_at);
          break;
        case 'onboarding.sent': {
          const { data } = event;
          update(id, {
            status: data.status,
            send_count: data.send_number,
            last_sent_at: data.sent_at,
            updated_at: data.sent_at,
          });
          deactivateLinks(id, data.sent_at);
          insertLink({
            token_hash: data.token_hash,
            onboarding_id: id,
            team_id: data.team_id,
            send_number: data.send_number,
            issued_at: data.sent_at,
            deactivated_at: null,
          });
          break;
        }
        case 'onboarding.started':
          update(id, { status: 'in_progress', updated_at: event.data.started_at });
          break;
        case 'response.submitted':
          update(id, { progress_pct: event.data.progress_pct, updated_at: event.data.submitted_at });
          break;
        case 'onboarding.completed':
          update(id, { status: 'completed', progress_pct: 100, updated_at: event.data.completed_at });
          break;
        case 'onboarding_expired':
          update(id, { status: 'expired', updated_at: event.data.expired_at });
          break;
        case 'onboarding_archived':
          update(id, { archived_at: event.data.archived_at, updated_at: event.data.archived_at });
          break;
        case 'onboarding_client_erased':
          update(id, { client_erased_at: event.data.erased_at, updated_at: event.data.erased_at });
          deactivateLinks(id, event.data.erased_at);
          break;
        case 'answer_saved':
        case 'signature.signed':
        case 'file.uploaded':
        case 'payment.succeeded':
        case 'onboarding.overdue':
          break;
        default: {
          const _exhaustive: never = event;
          break;
        }
      }
    }

    if (dirtyRows.size > 0) {
      await client.query(
        `insert into ${onboardings}
           (id, team_id, client_id, template_id, template_source, template_name, template_snapshot,
            status, progress_pct, created_at, due_date, due_at, due_on, due_timezone, expires_at,
            assigned_to, archived_at, client_erased_at, send_count, last_sent_at, updated_at, position)
         select id, team_id, client_id, template_id, template_source, template_name, template_snapshot::jsonb,
                status, progress_pct, created_at, due_date, due_date::timestamptz, due_on, due_timezone, expires_at,
                assigned_to, archived_at, client_erased_at, send_count, last_sent_at, updated_at, position
         from jsonb_to_recordset($1::jsonb) as r(
           id uuid, team_id uuid, client_id uuid, template_id uuid, template_source text, template_name text,
           template_snapshot text, status text, progress_pct integer, created_at timestamptz, due_date text,
           due_on text, due_timezone text, expires_at text, assigned_to uuid, archived_at timestamptz,
           client_erased_at timestamptz, send_count integer, last_sent_at timestamptz,
           updated_at timestamptz, position bigint)
         on conflict (id) do update
           set status = excluded.status, progress_pct = excluded.progress_pct,
               due_date = excluded.due_date, due_at = excluded.due_at, due_on = excluded.due_on,
               due_timezone = excluded.due_timezone, assigned_to = excluded.assigned_to,
               archived_at = excluded.archived_at, client_erased_at = excluded.client_erased_at,
               send_count = excluded.send_count, last_sent_at = excluded.last_sent_at,
               updated_at = excluded.updated_at`,
        [JSON.stringify([...dirtyRows].map((key) => rows.get(key)!))],
      );
    }
    if (dirtyLinks.size > 0) {
      await client.query(
        `insert into ${links} (token_hash, onboarding_id, team_id, send_number, issued_at, deactivated_at)
         select token_hash, onboarding_id, team_id, send_number, issued_at, deactivated_at
         from jsonb_to_recordset($1::jsonb) as r(
           token_hash text, onboarding_id uuid, team_id uuid, send_number integer,
           issued_at timestamptz, deactivated_at timestamptz)
         on conflict (token_hash) do update set deactivated_at = excluded.deactivated_at`,
        [JSON.stringify([...dirtyLinks].map((tokenHash) => linkRows.get(tokenHash)!))],
      );
    }
  },
};
