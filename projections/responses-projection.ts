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

/** Opens personal text fields; null when any of them can no longer be read (the client was erased). */
async function openAll(db: Queryable, values: unknown[]): Promise<string[] | null> {
  const opened = await openSealed(
    db,
    values.map((value) => (isSealed(value) ? value : typeof value === 'string' ? value : null)) as Array<
      SealedValue | string | null
    >,
  );
  return opened.some((value) => value === null) ? null : (opened as string[]);
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

export const responsesProjection: Projection = {
  name: 'responses',
  tables: ['responses', 'response_onboardings'],
  async apply(client, events, table) {
    const responses = table('responses');
    const onboardings = table('response_onboardings');

    /** Inserts the field's response, or replaces its value (a later answer makes it a draft again). */
    const upsert = async (
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
      await client.query(
        `insert into ${responses}
           (id, onboarding_id, team_id, client_id, step_id, field_id, kind, value, status,
            rejection_reason, created_at, updated_at, position)
         select $1, o.onboarding_id, o.team_id, o.client_id, $3, $4, $5, $6::jsonb, 'draft', null, $7, $7, $8
         from ${onboardings} o where o.onboarding_id = $2
         on conflict (onboarding_id, field_id) do update
           set kind = excluded.kind, value = excluded.value, status = 'draft', updated_at = excluded.updated_at`,
        [
          row.id,
          row.onboarding_id,
          row.step_id,
          row.field_id,
          row.kind,
          row.value === null ? null : JSON.stringify(row.value),
          row.at,
          String(recorded.position),
        ],
      );
    };

    for (const recorded of events) {
      if (!HANDLED.has(recorded.type)) continue;
      const event = { type: recorded.type, data: recorded.data } as OnboardingEvent | ClientEvent;
      switch (event.type) {
        case 'onboarding_created':
          await client.query(
            `insert into ${onboardings} (onboarding_id, team_id, client_id) values ($1, $2, $3)
             on conflict (onboarding_id) do nothing`,
            [event.data.onboarding_id, event.data.team_id, event.data.client_id],
          );
          break;
        case 'answer_saved': {
          const { data } = event;
          const opened = await openAnswerValue(client, data.value);
          await upsert(recorded, {
            id: data.response_id,
            onboarding_id: data.onboarding_id,
            step_id: data.step_id,
            field_id: data.field_id,
            kind: 'answer',
            value: opened.value,
            at: data.saved_at,
          });
          break;
        }
        case 'signature.signed': {
          const { data } = event;
          if (data.signer_role !== 'client') break;
          const opened = await openAll(client, [data.signer_name, data.signer_email]);
          await upsert(recorded, {
            id: data.signature_id,
            onboarding_id: data.onboarding_id,
            step_id: data.step_id,
            field_id: data.field_id,
            kind: 'signature',
            value: opened && {
              signature_id: data.signature_id,
              signer_name: opened[0],
              signer_email: opened[1],
              signed_at: data.signed_at,
            },
            at: data.signed_at,
          });
          break;
        }
        case 'file.uploaded': {
          const { data } = event;
          const opened = await openAll(client, [data.file_name]);
          await upsert(recorded, {
            id: data.file_id,
            onboarding_id: data.onboarding_id,
            step_id: data.step_id,
            field_id: data.field_id,
            kind: 'file',
            value: opened && {
              file_id: data.file_id,
              file_name: opened[0],
              content_type: data.content_type,
              size_bytes: data.size_bytes,
            },
            at: data.uploaded_at,
          });
          break;
        }
        case 'response.submitted':
          await client.query(
            `update ${responses} set status = 'submitted', updated_at = $3
             where onboarding_id = $1 and step_id = $2`,
            [event.data.onboarding_id, event.data.step_id, event.data.submitted_at],
          );
          break;
        case 'onboarding_client_erased':
          await client.query(
            `update ${responses} set value = null, updated_at = $2 where onboarding_id = $1`,
            [event.data.onboarding_id, event.data.erased_at],
          );
          break;
        case 'client.erased':
          await client.query(`update ${responses} set value = null, updated_at = $2 where client_id = $1`, [
            event.data.client_id,
            event.data.erased_at,
          ]);
          break;
        default:
          break;
      }
    }
  },
};
