import {
  isOnboardingEventType,
  type OnboardingEvent,
} from '../shared/domain/onboarding/onboarding-events.ts';
import type { Projection } from './projection.ts';

/**
 * onboardings and onboarding_links (infra/migrations/030_onboardings.sql) from the
 * onboarding streams: event data only, so a rebuild gives the same rows.
 */
export const onboardingsProjection: Projection = {
  name: 'onboardings',
  tables: ['onboardings', 'onboarding_links'],
  async apply(client, events, table) {
    const onboardings = table('onboardings');
    const links = table('onboarding_links');
    const update = (id: string, set: string, values: unknown[]) =>
      client.query(`update ${onboardings} set ${set} where id = $1`, [id, ...values]);
    const deactivateLinks = (id: string, at: string) =>
      client.query(
        `update ${links} set deactivated_at = $2 where onboarding_id = $1 and deactivated_at is null`,
        [id, at],
      );

    for (const recorded of events) {
      if (!isOnboardingEventType(recorded.type)) continue;
      const event = { type: recorded.type, data: recorded.data } as OnboardingEvent;
      const id = event.data.onboarding_id;
      switch (event.type) {
        case 'onboarding_created': {
          const { data } = event;
          await client.query(
            `insert into ${onboardings}
               (id, team_id, client_id, template_id, template_source, template_name, template_snapshot,
                status, progress_pct, created_at, due_date, due_at, due_on, due_timezone, expires_at,
                assigned_to, archived_at, client_erased_at, send_count, last_sent_at, updated_at, position)
             values ($1, $2, $3, $4, $5, $6, $7::jsonb, 'draft', 0, $8, $9::text, $9::text::timestamptz, $10, $11, $12,
                     null, null, null, 0, null, $8, $13)
             on conflict (id) do nothing`,
            [
              id,
              data.team_id,
              data.client_id,
              data.template_id,
              data.template_source,
              data.template_snapshot.name,
              JSON.stringify(data.template_snapshot),
              data.created_at,
              data.due_date,
              data.due_on,
              data.due_timezone,
              data.expires_at,
              String(recorded.position),
            ],
          );
          await client.query(
            `insert into ${links} (token_hash, onboarding_id, team_id, send_number, issued_at)
             values ($1, $2, $3, 0, $4) on conflict (token_hash) do nothing`,
            [data.token_hash, id, data.team_id, data.created_at],
          );
          break;
        }
        case 'onboarding_updated': {
          const { changes, updated_at } = event.data;
          if ('due_date' in changes) {
            await update(
              id,
              'due_date = $2::text, due_at = $2::text::timestamptz, due_on = $3, due_timezone = $4',
              [changes.due_date ?? null, changes.due_on ?? null, changes.due_timezone ?? null],
            );
          }
          if (changes.assigned_to !== undefined) await update(id, 'assigned_to = $2', [changes.assigned_to]);
          await update(id, 'updated_at = $2', [updated_at]);
          break;
        }
        case 'onboarding_marked_in_progress':
          await update(id, `status = 'in_progress', updated_at = $2`, [event.data.marked_at]);
          break;
        case 'onboarding_cancelled':
          await update(id, `status = 'cancelled', updated_at = $2`, [event.data.cancelled_at]);
          await deactivateLinks(id, event.data.cancelled_at);
          break;
        case 'onboarding.sent': {
          const { data } = event;
          await update(id, 'status = $2, send_count = $3, last_sent_at = $4, updated_at = $4', [
            data.status,
            data.send_number,
            data.sent_at,
          ]);
          await deactivateLinks(id, data.sent_at);
          await client.query(
            `insert into ${links} (token_hash, onboarding_id, team_id, send_number, issued_at)
             values ($1, $2, $3, $4, $5) on conflict (token_hash) do nothing`,
            [data.token_hash, id, data.team_id, data.send_number, data.sent_at],
          );
          break;
        }
        case 'onboarding.started':
          await update(id, `status = 'in_progress', updated_at = $2`, [event.data.started_at]);
          break;
        case 'response.submitted':
          await update(id, 'progress_pct = $2, updated_at = $3', [
            event.data.progress_pct,
            event.data.submitted_at,
          ]);
          break;
        case 'onboarding.completed':
          await update(id, `status = 'completed', progress_pct = 100, updated_at = $2`, [
            event.data.completed_at,
          ]);
          break;
        case 'onboarding_expired':
          await update(id, `status = 'expired', updated_at = $2`, [event.data.expired_at]);
          break;
        case 'onboarding_archived':
          await update(id, 'archived_at = $2, updated_at = $2', [event.data.archived_at]);
          break;
        case 'onboarding_client_erased':
          await update(id, 'client_erased_at = $2, updated_at = $2', [event.data.erased_at]);
          await deactivateLinks(id, event.data.erased_at);
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
  },
};
