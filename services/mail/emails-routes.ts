import { openTextColumns } from '../../shared/privacy/sealed-columns.ts';
import { operatorSchema } from '../../shared/http/route-schema.ts';
import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { codedError } from '../../shared/http/api-error.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { teamExists } from '../../projections/teams/queries.ts';
import { EMAIL_KINDS, EMAIL_STATUSES, teamEmails } from './outbox-queries.ts';

export type EmailsRouteDeps = Pick<Platform, 'readPool' | 'vault'>;

/**
 * GET /admin/v1/teams/:team_id/emails (operator-and-portal-api.md): the team's emails from
 * the outbox (mail_outbox), newest first (created_at by the service clock, then the order
 * they were queued). `limit` (default 100, at most 1000) keeps the answer bounded.
 */

export const emailSchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(EMAIL_KINDS),
  to: z.string().describe('empty once the client was erased'),
  from_name: z.string(),
  subject: z.string(),
  text: z.string(),
  onboarding_id: z.string().uuid().nullable(),
  created_at: z.string(),
  status: z.enum(EMAIL_STATUSES),
});

export async function emailsRoutes(plain: FastifyInstance, { context }: { context: EmailsRouteDeps }) {
  const app = zodApp(plain);

  app.get(
    '/teams/:team_id/emails',
    {
      schema: operatorSchema(
        'adminListEmails',
        "The team's emails (invites, reminders, automation emails, notifications, workspace account emails), newest first",
        {
          params: z.object({ team_id: z.string().uuid() }),
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
        },
        {
          200: z.object({ emails: z.array(emailSchema) }),
          400: coded('limit is not a whole number from 1 to 1000 (code invalid_body)'),
          404: coded('Unknown team (code team_not_found)'),
        },
      ),
    },
    async (request) => {
      const { team_id: teamId } = request.params;
      if (!(await teamExists(context.readPool, teamId)))
        throw codedError(404, 'team_not_found', 'Team not found');
      const rows = await teamEmails(context.readPool, teamId, request.query.limit);
      // Mails about a client are sealed with its key; once it is erased they read empty.
      const opened = await openTextColumns(context.vault, rows, ['to', 'subject', 'text']);
      return {
        emails: opened.map((row) => ({
          ...row,
          to: row.to ?? '',
          subject: row.subject ?? '',
          text: row.text ?? '',
          created_at: row.created_at.toISOString(),
        })),
      };
    },
  );
}
