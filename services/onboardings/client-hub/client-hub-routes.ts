import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { zodApp } from '../../../shared/http/zod-app.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { signedIn } from '../../../shared/http/workspace-request.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { coded } from '../../../shared/http/error-schemas.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';
import { toDomainEvent } from '../../../shared/commands/handle-command.ts';
import { memberNames } from '../../../projections/teams/queries.ts';
import { reviewState } from '../../../projections/onboardings/fold.ts';
import {
  answersAwaitingReviewSql,
  awaitingReviewSql,
} from '../../../projections/onboardings/awaiting-review.ts';
import { ONBOARDING_STATUSES, onboardingStreamId } from '../onboarding-events.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { openedValues } from '../onboarding-stream-view.ts';
import { currentSnapshot, paymentsOf, PAYMENT_VIEW_STATUSES } from '../payments-view.ts';
import { onboardingTimeline } from '../onboarding-timeline.ts';
import { timelineSources } from '../timeline-sources.ts';
import { clientFiles, type HubFile } from './client-files.ts';

/*
 * GET /clients/:id/hub (workspace, every role): the client as a hub (decision 0090) — the
 * client's onboardings with their status and whether answers wait for review, the files
 * the client uploaded, the payments and the activity of those onboardings, newest first.
 * Everything is read for the signed-in member's team only: another team's client, an
 * unknown one or an erased one is 404 client_not_found. The newest HUB_ONBOARDINGS
 * onboardings are read (their streams are folded here, as the onboarding page does).
 */

const HUB_ONBOARDINGS = 25;
const HUB_ACTIVITY = 40;

const params = z.object({ id: z.string().uuid() });

const onboardingSchema = z.object({
  id: z.string(),
  template_name: z.string(),
  status: z.enum(ONBOARDING_STATUSES),
  review_state: z.enum(['changes_requested', 'awaiting_review']).nullable(),
  awaiting_review: z.boolean().describe('answers the client submitted wait for the team (the list’s filter)'),
  answers_awaiting: z.number().int(),
  progress_pct: z.number(),
  created_at: z.string(),
  due_at: z.string().nullable(),
  archived: z.boolean(),
});
const fileSchema = z.object({
  onboarding_id: z.string(),
  file_id: z.string(),
  file_name: z.string().nullable(),
  field_label: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  uploaded_at: z.string(),
});
const paymentSchema = z.object({
  onboarding_id: z.string(),
  field_id: z.string(),
  label: z.string(),
  status: z.enum(PAYMENT_VIEW_STATUSES),
  amount_cents: z.number().int().nullable(),
  currency: z.string(),
  paid_at: z.string().nullable(),
});
const activitySchema = z.object({
  onboarding_id: z.string(),
  template_name: z.string(),
  at: z.string(),
  kind: z.string(),
  actor: z.object({
    type: z.enum(['client', 'member', 'api_key', 'stripe', 'service']),
    id: z.string().nullable(),
    name: z.string().nullable(),
  }),
  detail: z.record(z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

interface OnboardingRow {
  id: string;
  template_name: string;
  status: (typeof ONBOARDING_STATUSES)[number];
  review_fields: Record<string, string>;
  awaiting_review: boolean;
  answers_awaiting: number;
  progress_pct: number;
  created_at: Date;
  due_at: Date | null;
  archived_at: Date | null;
}

export async function clientHubRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  app.get(
    '/clients/:id/hub',
    {
      config: { workspace: { action: 'clients.read' } },
      schema: workspaceSchema(
        'workspaceClientHub',
        'The client as a hub: their onboardings with status and waiting for review, their files, payments and activity',
        { params },
        {
          200: z.object({
            onboardings: z.array(onboardingSchema),
            files: z.array(fileSchema),
            payments: z.array(paymentSchema),
            activity: z.array(activitySchema).describe('newest first'),
          }),
          404: coded('Unknown client, another team’s, or erased (code client_not_found)'),
        },
      ),
    },
    async (request) => {
      const teamId = signedIn(request).teamId;
      const clientId = request.params.id;
      const known = await context.readPool.query(
        `select 1 from clients c where c.team_id = $1 and c.id = $2 and not client_is_erased(c.erased_at, c.email)`,
        [teamId, clientId],
      );
      if (known.rows.length === 0) throw codedError(404, 'client_not_found', 'Client not found');
      const { rows } = await context.readPool.query<OnboardingRow>(
        `select o.id, o.template_name, o.status, o.review_fields, o.progress_pct, o.created_at, o.due_at,
                o.archived_at, ${awaitingReviewSql('o')} as awaiting_review,
                ${answersAwaitingReviewSql('o')} as answers_awaiting
         from onboardings o
         where o.team_id = $1 and o.client_id = $2 and o.client_erased_at is null
         order by o.created_at desc, o.position desc
         limit ${HUB_ONBOARDINGS}`,
        [teamId, clientId],
      );
      const names = await memberNames(context.readPool, teamId);
      const files: HubFile[] = [];
      const payments: z.infer<typeof paymentSchema>[] = [];
      const activity: z.infer<typeof activitySchema>[] = [];
      for (const row of rows) {
        const recorded = await context.eventStore.readStream(onboardingStreamId(row.id));
        const events = recorded.map((event) => toDomainEvent<OnboardingEvent>(event));
        const snapshot = currentSnapshot(events);
        if (snapshot) {
          files.push(...clientFiles(row.id, recorded, snapshot, await openedValues(context, recorded)));
          for (const payment of paymentsOf(events, snapshot)) {
            if (payment.status === 'unpaid') continue;
            payments.push({
              onboarding_id: row.id,
              field_id: payment.field_id,
              label: payment.label,
              status: payment.status,
              amount_cents: payment.amount_cents,
              currency: payment.currency,
              paid_at: payment.paid_at,
            });
          }
        }
        const { mails } = await timelineSources(
          context.readPool,
          teamId,
          row.id,
          recorded.map((event) => event.id),
        );
        // The client's story: what happened and the mails sent, not the team's hooks or automations.
        for (const entry of onboardingTimeline(recorded, { mails, deliveries: [], runs: [] })) {
          const actor = entry.actor;
          activity.push({
            ...entry,
            onboarding_id: row.id,
            template_name: row.template_name,
            actor: {
              type: actor.type,
              id:
                actor.type === 'member'
                  ? actor.member_id
                  : actor.type === 'api_key'
                    ? actor.api_key_id
                    : null,
              name: actor.type === 'member' ? (names.get(actor.member_id) ?? 'Former member') : null,
            },
          });
        }
      }
      activity.sort((a, b) => b.at.localeCompare(a.at));
      files.sort((a, b) => b.uploaded_at.localeCompare(a.uploaded_at));
      return {
        onboardings: rows.map((row) => ({
          id: row.id,
          template_name: row.template_name,
          status: row.status,
          review_state: reviewState(row.status, row.review_fields),
          awaiting_review: row.awaiting_review,
          answers_awaiting: row.answers_awaiting,
          progress_pct: Number(row.progress_pct),
          created_at: new Date(row.created_at).toISOString(),
          due_at: row.due_at ? new Date(row.due_at).toISOString() : null,
          archived: row.archived_at !== null,
        })),
        files,
        payments,
        activity: activity.slice(0, HUB_ACTIVITY),
      };
    },
  );
}
