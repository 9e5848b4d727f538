import { copyRows } from '../../shared/db/copy-rows.ts';
import { liveTable, readModelProjection, streamsBegunIn } from '../../shared/projections/projection.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import {
  erasedClientOf,
  foldResponse,
  onboardingOf,
  responseKey,
  responsesBatch,
  RESPONSES_HANDLED,
  sealedValuesOf,
  type ResponseOnboardingRow,
  type ResponseRow,
  type ResponsesBatch,
} from './fold.ts';

/**
 * responses and response_onboardings (infra/migrations/060_responses.sql): the answers of
 * every onboarding. The SQL half of the read model; fold.ts folds the events.
 * Client-entered values are sealed with the client's key in the events (answers, signer
 * names and emails, file names); the rows keep those envelopes as they are (no opening, no
 * re-sealing) and the readers open them (queries.ts). The erasure events null
 * an erased client's values, live and on rebuild alike.
 */
export const responsesProjection = readModelProjection<ResponsesBatch>({
  name: 'responses',
  tables: ['responses', 'response_onboardings'],
  replayIndexes: ['responses_onboarding_oldest', 'responses_client'],
  canHandle: RESPONSES_HANDLED,

  async load(client, events, table) {
    // The sealed values of each event, kept as they are (shared/privacy/sealed-columns.ts).
    const onboardingIds = new Set<string>();
    const erasedClients = new Set<string>();
    const opened = new Map<string, unknown[]>();
    const begun =
      table === liveTable
        ? new Set<string>()
        : streamsBegunIn(events, (event) => responseKey(onboardingOf(event) ?? event.streamId));
    for (const recorded of events) {
      const erased = erasedClientOf(recorded);
      if (erased !== undefined) erasedClients.add(responseKey(erased));
      const onboardingId = onboardingOf(recorded);
      if (onboardingId !== undefined && !begun.has(responseKey(onboardingId))) {
        onboardingIds.add(responseKey(onboardingId));
      }
      const values = sealedValuesOf(recorded);
      if (values.length > 0)
        opened.set(
          recorded.id,
          values.map((value) => value ?? null),
        );
    }

    const loadedOnboardings = await client.query<ResponseOnboardingRow>(
      `select onboarding_id, team_id, client_id from ${table('response_onboardings')} where onboarding_id = any($1::uuid[])`,
      [[...onboardingIds]],
    );
    const loadedResponses = await client.query<ResponseRow>(
      `select id, onboarding_id, team_id, client_id, step_id, field_id, kind, value::text as value, status,
              rejection_reason, created_at::text as created_at, updated_at::text as updated_at,
              position::text as position, current
       from ${table('responses')} where onboarding_id = any($1::uuid[]) or client_id = any($2::uuid[])`,
      [[...onboardingIds], [...erasedClients]],
    );
    const batch = responsesBatch(loadedOnboardings.rows, loadedResponses.rows, opened);
    if (table !== liveTable) {
      batch.stored = {
        onboardings: new Set(batch.onboardings.keys()),
        responses: new Set(loadedResponses.rows.map((row) => row.id)),
      };
    }
    return batch;
  },

  fold: foldResponse,

  async persist(client, batch, table) {
    const { stored } = batch;
    if (stored) {
      // A rebuild writes the rows its batch made (none stored before it) with COPY.
      await copyRows(
        client,
        table('response_onboardings'),
        ['onboarding_id', 'team_id', 'client_id'],
        [...batch.dirtyOnboardings]
          .filter((key) => !stored.onboardings.has(key))
          .map((key) => batch.onboardings.get(key)!),
      );
    } else if (batch.dirtyOnboardings.size > 0) {
      await client.query(
        `insert into ${table('response_onboardings')} (onboarding_id, team_id, client_id)
         select onboarding_id, team_id, client_id
         from jsonb_to_recordset($1::jsonb) as r(onboarding_id uuid, team_id uuid, client_id uuid)
         on conflict (onboarding_id) do nothing`,
        [JSON.stringify([...batch.dirtyOnboardings].map((key) => batch.onboardings.get(key)!))],
      );
    }
    if (batch.removed.size > 0) {
      await client.query(`delete from ${table('responses')} where id = any($1::uuid[])`, [
        [...batch.removed].map((row) => row.id),
      ]);
    }
    // Versions that stop being current first: the one current response per field is unique.
    const dirty = [...batch.dirty];
    for (const versions of [dirty.filter((row) => !row.current), dirty.filter((row) => row.current)]) {
      const rows = stored ? versions.filter((row) => stored.responses.has(row.id)) : versions;
      const fresh = stored ? versions.filter((row) => !stored.responses.has(row.id)) : [];
      if (rows.length > 0) await upsertResponses(client, table, rows);
      await copyRows(client, table('responses'), RESPONSE_COLUMNS, fresh);
    }
  },
});

const RESPONSE_COLUMNS = [
  'id',
  'onboarding_id',
  'team_id',
  'client_id',
  'step_id',
  'field_id',
  'kind',
  'value',
  'status',
  'rejection_reason',
  'created_at',
  'updated_at',
  'position',
  'current',
] as const;

async function upsertResponses(client: PoolClient, table: (name: string) => string, rows: ResponseRow[]) {
  await client.query(
    `insert into ${table('responses')}
           (id, onboarding_id, team_id, client_id, step_id, field_id, kind, value, status,
            rejection_reason, created_at, updated_at, position, current)
         select id, onboarding_id, team_id, client_id, step_id, field_id, kind, value::jsonb, status,
                rejection_reason, created_at, updated_at, position, current
         from jsonb_to_recordset($1::jsonb) as r(
           id uuid, onboarding_id uuid, team_id uuid, client_id uuid, step_id text, field_id text,
           kind text, value text, status text, rejection_reason text, created_at timestamptz,
           updated_at timestamptz, position bigint, current boolean)
         on conflict (id) do update
           set kind = excluded.kind, value = excluded.value, status = excluded.status,
               rejection_reason = excluded.rejection_reason, updated_at = excluded.updated_at,
               current = excluded.current`,
    [JSON.stringify(rows)],
  );
}
