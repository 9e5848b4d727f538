import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { signedIn } from '../../shared/http/workspace-request.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { onboardingTimeline } from './onboarding-timeline.ts';
import { timelineSources } from './timeline-sources.ts';
import { teamOnboardingEvents } from './onboarding-stream-view.ts';
import { memberNames } from '../../projections/teams/queries.ts';
import { workspaceErrorResponses } from '../../shared/http/workspace-request.ts';

/*
 * GET /onboardings/:onboarding_id/timeline (workspace, every role): the onboarding's
 * journey oldest first (./onboarding-timeline.ts) from its events, the mails about it
 * (invites, reminders), the hook deliveries of its events and the automation runs it
 * triggered. Members' names are resolved here; another team's onboarding is not found.
 */

const entrySchema = z.object({
  at: z.string(),
  kind: z.string().describe('an event type, or mail, hook_delivery, automation_run'),
  actor: z.object({
    type: z.enum(['client', 'member', 'api_key', 'stripe', 'service']),
    id: z.string().nullable(),
    name: z.string().nullable(),
  }),
  detail: z.record(z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

export async function workspaceTimelineRoutes(
  plain: FastifyInstance,
  { context }: { context: WorkspaceDeps },
) {
  const app = zodApp(plain);
  app.get(
    '/onboardings/:onboarding_id/timeline',
    {
      config: { workspace: { action: 'answers.read' } },
      schema: {
        operationId: 'workspaceGetTimeline',
        tags: ['workspace'],
        summary:
          'The onboarding’s timeline, oldest first: created, sent, opened, submissions, reviews, reminders, hook deliveries, automation runs, completed',
        params: z.object({ onboarding_id: z.string().uuid() }),
        response: {
          ...workspaceErrorResponses(),
          200: z.object({ entries: z.array(entrySchema) }),
          404: coded(
            'Unknown onboarding, another team’s, or its client was erased (code target_unavailable)',
          ),
        },
      },
    },
    async (request) => {
      const { onboarding_id: onboardingId } = request.params;
      const teamId = signedIn(request).teamId;
      const events = await teamOnboardingEvents(context, request, onboardingId);
      const eventIds = events.map((event) => event.id);
      const [sources, names] = await Promise.all([
        timelineSources(context.pool, teamId, onboardingId, eventIds),
        memberNames(context.pool, teamId),
      ]);
      const entries = onboardingTimeline(events, sources);
      return {
        entries: entries.map((entry) => ({
          ...entry,
          actor: {
            type: entry.actor.type,
            id:
              entry.actor.type === 'member'
                ? entry.actor.member_id
                : entry.actor.type === 'api_key'
                  ? entry.actor.api_key_id
                  : null,
            name:
              entry.actor.type === 'member' ? (names.get(entry.actor.member_id) ?? 'Former member') : null,
          },
        })),
      };
    },
  );
}
