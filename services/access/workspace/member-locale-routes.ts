import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import { type ZodApp, zodApp } from '../../../shared/http/zod-app.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';
import { LOCALES } from '../../../shared/i18n/locales.ts';
import { teamCommand } from './workspace-commands.ts';
import { signedIn } from './workspace-session.ts';

const chosen = z.object({
  locale: z
    .enum(LOCALES)
    .nullable()
    .describe("the workspace's language for this member and of the emails it sends them; null: the team's"),
});

/**
 *   PUT /me/locale   any member, for themselves: the language of their workspace (one of the
 *                    nine of the client's form) and of the notifications emailed to them.
 */
export async function memberLocaleRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  chooseLocaleRoute(zodApp(plain), context);
}

function chooseLocaleRoute(app: ZodApp, context: WorkspaceDeps) {
  app.put(
    '/me/locale',
    {
      schema: workspaceSchema(
        'workspaceChooseMyLocale',
        "Choose the language of one's workspace and emails (null: the team's)",
        { body: chosen },
        { 200: chosen },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const outcome = await teamCommand(context, request, session, {
        command: {
          type: 'ChooseMemberLocale',
          data: { member_id: session.memberId, locale: request.body.locale },
          metadata: { now: context.clock.now() },
        },
      });
      await awaitReadModels(context, outcome.position);
      return { locale: request.body.locale };
    },
  );
}
