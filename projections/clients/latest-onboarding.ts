import { z } from 'zod';
import { awaitingReviewColumnSql } from '../onboardings/awaiting-review.ts';
import { parsedRows, type ReadClient } from '../read-client.ts';
import { ONBOARDING_STATUSES } from '../../services/onboardings/onboarding-events.ts';

/**
 * Each client's latest onboarding (the newest not archived, else the newest) for the
 * workspace's Clients list: its status and whether answers wait on the team (the one
 * definition, projections/onboardings/awaiting-review.ts). One query for a page of clients.
 */
export const latestOnboardingSchema = z
  .object({
    id: z.string().uuid(),
    status: z.enum(ONBOARDING_STATUSES),
    awaiting_review: z.boolean(),
    template_name: z.string(),
    created_at: z.string(),
  })
  .nullable()
  .describe('the client’s latest onboarding, or null when they have none');

export type LatestOnboarding = z.infer<typeof latestOnboardingSchema>;

const row = z.object({
  client_id: z.string(),
  id: z.string(),
  status: z.enum(ONBOARDING_STATUSES),
  awaiting_review: z.boolean(),
  template_name: z.string(),
  created_at: z.date(),
});

export async function latestOnboardings(
  db: ReadClient,
  teamId: string,
  clientIds: readonly string[],
): Promise<Map<string, NonNullable<LatestOnboarding>>> {
  if (clientIds.length === 0) return new Map();
  const rows = await parsedRows(
    db,
    row,
    `select distinct on (o.client_id) o.client_id, o.id, o.status, o.template_name, o.created_at,
            ${awaitingReviewColumnSql('o')} as awaiting_review
       from onboardings o
      where o.team_id = $1 and o.client_id = any($2::uuid[]) and o.client_erased_at is null
      order by o.client_id, (o.archived_at is null) desc, o.created_at desc, o.position desc`,
    [teamId, clientIds],
  );
  return new Map(
    rows.map(({ client_id: clientId, created_at: createdAt, ...rest }) => [
      clientId,
      { ...rest, created_at: createdAt.toISOString() },
    ]),
  );
}
