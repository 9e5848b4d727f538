import type { FastifyInstance } from 'fastify';
import { workspaceSchema } from '../../shared/http/route-schema.ts';
import { signedIn, type WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { zodApp } from '../../shared/http/zod-app.ts';
import { homeAnswer } from './contract/home.ts';
import { readHome } from './home-queries.ts';

/*
 * Home (/workspace/v1; any member who may read onboardings):
 *
 *   GET /home   what needs the team, section by section (at most 10 items each and the
 *               section's total, the member's own first), the month's usage against the
 *               plan and the month's figures per template
 */
export async function homeRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  app.get(
    '/home',
    {
      config: { workspace: { action: 'onboardings.read' } },
      schema: workspaceSchema(
        'workspaceGetHome',
        'What needs the team: answers awaiting review, changes requested, overdue, due this week, recently completed and drafts (the signed-in member’s first), the month’s usage and figures per template',
        {},
        { 200: homeAnswer },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      return readHome(
        context.pool,
        context.vault,
        { teamId: session.teamId, memberId: session.memberId },
        context.clock.now(),
      );
    },
  );
}
