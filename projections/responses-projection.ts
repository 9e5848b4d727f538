import type { PoolClient } from '../shared/db/pool.ts';
import type { ClientEvent } from '../shared/domain/client/client-events.ts';
import type { OnboardingEvent } from '../shared/domain/onboarding/onboarding-events.ts';
import type { RecordedEvent } from '../shared/event-store/event-store.ts';
import { isSealed, openSealed, type SealedValue } from '../shared/privacy/personal-data-vault.ts';
import type { Projection } from './projection.ts';

/**
 * responses and response_onboardings (infra/migrations/060_responses.sql): the answers of
 * every onboarding, from its events. Client-entered values are sealed with the client's
 * key in the events (answers, signer names and emails, file names); they are opened here,
 * inside the projection's transaction, from the key table as it is at that moment, so a
 * rebuild after an erasure gives the same nulls as the live rows (which the erasure events
 * null). Signatures of team members (countersignatures) are not responses.
 */

type Queryable = Pick<PoolClient, 'query'>;

/** The value of an answer as stored in answer_saved: sealed JSON text, or (older events, tests) a plain value. */
export async function openAnswerValue(
  db: Queryable,
  value: unknown,
): Promise<{ erased: boolean; value: unknown }> {
  if (!isSealed(value)) return { erased: false, value };
  const [opened] = await openSealed(db, [value]);
  if (opened === null || opened === undefined) return { erased: true, value: null };
  return { erased: false, value: JSON.parse(opened) as unknown };
}

const HANDLED = new Set([
  'onboarding_created',
  'answer_saved',
  'response.submitted',
  'signature.signed',
  'file.uploaded',
  'onboarding_client_erased',
  'client.erased',
]);

interface ResponseRow {
  id: string;
  onboarding_id: string;
  team_id: string;
  client_id: string;
  step_id: string;
  field_id: string;
  kind: string;
  /** jsonb as text */
  value: string | null;
  status: string;
  rejection_reason: string | null;
  created_at: string;
  updated_at: string;
  position: string;
}

interface ResponseOnboardingRow {
  onboarding_id: string;
  team_id: string;
  client_id: string;
}

const uuidKey = (id: string) => id.toLowerCase();

/**
 * Batch-style: the rows a batch touches are loaded with one select per table, every sealed
 * value of the batch is opened with one key lookup, the events are folded into the rows in
 * memory in log order, and each table gets one multi-row upsert. Timestamps, positions and
 * jsonb travel as PostgreSQL text, so rows round-trip exactly.
 */
export const responsesProjection: Projection = {
  name: 'responses',
  tables: ['responses', 'response_onboardings'],
  async apply(client, events, table) {
    const responses = table('responses');
    const onboardings = table('response_onboardings');

    const relevant = events.filter((recorded) => HANDLED.has(recorded.type));
    if (relevant.length === 0) return;

    // Every sealed value of the batch, opened with one key lookup.
    const sealed: Array<SealedValue | string | null> = [];
    const sealedAt = new Map<number, number>();
    const onboardingIds = new Set<string>();
    const erasedClients = new Set<string>();
    relevant.forEach((recorded, index) => {
      const event = { type: recorded.type, data: recorded.data } as OnboardingEvent | ClientEvent;
      if (event.type === 'client.erased') {
        erasedClients.add(uuidKey(event.data.client_id));
        return;
      }
      onboardingIds.add(uuidKey((event.data as { onboarding_id: string }).onboarding_id));
      const values =
        event.type === 'answer_saved'
          ? isSealed(event.data.value)
            ? [event.data.value]
            : []
          : event.type === 'signature.signed'
            ? event.data.signer_role === 'client'
              ? [event.data.signer_name, event.data.signer_email]
              : []
            : event.type === 'file.uploaded'
              ? [event.data.file_name]
              : [];
      if (values.length === 0) return;
      sealedAt.set(index, sealed.length);
      for (const value of values) {
        sealed.push(isSealed(value) ? value : typeof value === 'string' ? value : null);
      }
    });
    const opened = await openSealed(client, sealed);
    /** Like openAll: the opened texts, or null when any of them can no longer be read. */
    const openedAll = (index: number, count: number): string[] | null => {
      const at = sealedAt.get(index)!;
      const values = opened.slice(at, at + count);
      return values.some((value) => value === null) ? null : (values as string[]);
    };

    const loadedOnboardings = await client.query<ResponseOnboardingRow>(
      `select onboarding_id, team_id, client_id from ${onboardings} where onboarding_id = any($1::uuid[])`,
      [[...onboardingIds]],
    );
    const loadedResponses = await client.query<ResponseRow>(
      `select id, onboarding_id, team_id, client_id, step_id, field_id, kind, value::text as value, status,
              rejection_reason, created_at::text as created_at, updated_at::text as updated_at,
              position::text as position
       from ${responses} where onboarding_id = any($1::uuid[]) or client_id = any($2::uuid[])`,
      [[...onboardingIds], [...erasedClients]],
    );

    const onboardingRows = new Map<string, ResponseOnboardingRow>(
      loadedOnboardings.rows.map((row) => [uuidKey(row.onboarding_id), row]),
    );
    const dirtyOnboardings = new Set<string>();
    /** responses per onboarding, then per field */
    const rows = new Map<string, Map<string, ResponseRow>>();
    const rowsOf = (onboardingId: string) => {
      const key = uuidKey(onboardingId);
      let fields = rows.get(key);
      if (!fields) rows.set(key, (fields = new Map()));
      return fields;
    };
    for (const row of loadedResponses.rows) rowsOf(row.onboarding_id).set(row.field_id, row);
    const dirty = new Set<ResponseRow>();

    /** Inserts the field's response, or replaces its value (a later answer makes it a draft again). */
    const upsert = (
      recorded: RecordedEvent,
      row: {
        id: string;
        onboarding_id: string;
        step_id: string;
        field_id: string;
        kind: 'answer' | 'signature' | 'file';
        value: unknown;
        at: string;
      },
    ) => {
      const onboarding = onboardingRows.get(uuidKey(row.onboarding_id));
      if (!onboarding) return;
      const value = row.value === null ? null : (JSON.stringify(row.value) ?? null);
      const fields = rowsOf(row.onboarding_id);
      const existing = fields.get(row.field_id);
      if (existing) {
        Object.assign(existing, { kind: row.kind, value, status: 'draft', updated_at: row.at });
        dirty.add(existing);
        return;
      }
      const created: ResponseRow = {
        id: row.id,
        onboarding_id: onboarding.onboarding_id,
        team_id: onboarding.team_id,
        client_id: onboarding.client_id,
        step_id: row.step_id,
        field_id: row.field_id,
        kind: row.kind,
        value,
        status: 'draft',
        rejection_reason: null,
        created_at: row.at,
        updated_at: row.at,
        position: String(recorded.position),
      };
      fields.set(row.field_id, created);
      dirty.add(created);
    };

    relevant.forEach((recorded, index) => {
      const event = { type: recorded.type, data: recorded.data } as OnboardingEvent | ClientEvent;
      switch (event.type) {
        case 'onboarding_created': {
          const key = uuidKey(event.data.onboarding_id);
          if (onboardingRows.has(key)) break;
          onboardingRows.set(key, {
            onboarding_id: event.data.onboarding_id,
            team_id: event.data.team_id,
            client_id: event.data.client_id,
          });
          dirtyOnboardings.add(key);
          break;
        }
        case 'answer_saved': {
          const { data } = event;
          let value: unknown = data.value;
          if (isSealed(data.value)) {
            const text = opened[sealedAt.get(index)!];
            value = text === null || text === undefined ? null : (JSON.parse(text) as unknown);
          }
          upsert(recorded, {
            id: data.response_id,
            onboarding_id: data.onboarding_id,
            step_id: data.step_id,
            field_id: data.field_id,
            kind: 'answer',
            value,
            at: data.saved_at,
          });
          break;
        }
        case 'signature.signed': {
          const { data } = event;
          if (data.signer_role !== 'client') break;
          const texts = openedAll(index, 2);
          upsert(recorded, {
            id: data.signature_id,
            onboarding_id: data.onboarding_id,
            step_id: data.step_id,
            field_id: data.field_id,
            kind: 'signature',
            value: texts && {
              signature_id: data.signature_id,
              signer_name: texts[0],
              signer_email: texts[1],
              signed_at: data.signed_at,
            },
            at: data.signed_at,
          });
          break;
        }
        case 'file.uploaded': {
          const { data } = event;
          const texts = openedAll(index, 1);
          upsert(recorded, {
            id: data.file_id,
            onboarding_id: data.onboarding_id,
            step_id: data.step_id,
            field_id: data.field_id,
            kind: 'file',
            value: texts && {
              file_id: data.file_id,
              file_name: texts[0],
              content_type: data.content_type,
              size_bytes: data.size_bytes,
            },
            at: data.uploaded_at,
          });
          break;
        }
        case 'response.submitted':
          for (const row of rowsOf(event.data.onboarding_id).values()) {
            if (row.step_id !== event.data.step_id) continue;
            Object.assign(row, { status: 'submitted', updated_at: event.data.submitted_at });
            dirty.add(row);
          }
          break;
        case 'onboarding_client_erased':
          for (const row of rowsOf(event.data.onboarding_id).values()) {
            Object.assign(row, { value: null, updated_at: event.data.erased_at });
            dirty.add(row);
          }
          break;
        case 'client.erased': {
          const clientId = uuidKey(event.data.client_id);
          for (const fields of rows.values()) {
            for (const row of fields.values()) {
              if (uuidKey(row.client_id) !== clientId) continue;
              Object.assign(row, { value: null, updated_at: event.data.erased_at });
              dirty.add(row);
            }
          }
          break;
        }
        default:
          break;
      }
    });

    if (dirtyOnboardings.size > 0) {
      await client.query(
        `insert into ${onboardings} (onboarding_id, team_id, client_id)
         select onboarding_id, team_id, client_id
         from jsonb_to_recordset($1::jsonb) as r(onboarding_id uuid, team_id uuid, client_id uuid)
         on conflict (onboarding_id) do nothing`,
        [JSON.stringify([...dirtyOnboardings].map((key) => onboardingRows.get(key)!))],
      );
    }
    if (dirty.size > 0) {
      await client.query(
        `insert into ${responses}
           (id, onboarding_id, team_id, client_id, step_id, field_id, kind, value, status,
            rejection_reason, created_at, updated_at, position)
         select id, onboarding_id, team_id, client_id, step_id, field_id, kind, value::jsonb, status,
                rejection_reason, created_at, updated_at, position
         from jsonb_to_recordset($1::jsonb) as r(
           id uuid, onboarding_id uuid, team_id uuid, client_id uuid, step_id text, field_id text,
           kind text, value text, status text, rejection_reason text, created_at timestamptz,
           updated_at timestamptz, position bigint)
         on conflict (onboarding_id, field_id) do update
           set kind = excluded.kind, value = excluded.value, status = excluded.status,
               updated_at = excluded.updated_at`,
        [JSON.stringify([...dirty])],
      );
    }
  },
};
