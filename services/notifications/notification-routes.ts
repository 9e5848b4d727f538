import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { inTransaction } from '../../shared/db/pool.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';
import { signedIn, type WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { zodApp } from '../../shared/http/zod-app.ts';
import {
  markReadBody,
  notificationsAnswer,
  notificationsQuery,
  preferencesSchema,
} from './contract/notifications.ts';
import { listNotifications, markRead, readPreferences, writePreferences } from './notification-queries.ts';

/*
 * The signed-in member's notifications (/workspace/v1; any member, about themselves only):
 *
 *   GET  /notifications                   { data, unread_count, total, page, page_size } newest first
 *   POST /notifications/read              { ids } or { all: true } → { unread_count }
 *   GET  /me/notification-preferences     { preferences }  one choice per kind
 *   PUT  /me/notification-preferences     { preferences }  every kind at once
 */
export async function notificationRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  const memberOf = (request: Parameters<typeof signedIn>[0]) => {
    const session = signedIn(request);
    return { teamId: session.teamId, memberId: session.memberId };
  };

  app.get(
    '/notifications',
    {
      schema: workspaceSchema(
        'workspaceListNotifications',
        'Your notifications, newest first, a page at a time, with the unread count',
        { querystring: notificationsQuery },
        { 200: notificationsAnswer },
      ),
    },
    async (request) => listNotifications(context.pool, context.vault, memberOf(request), request.query.page),
  );

  app.post(
    '/notifications/read',
    {
      schema: workspaceSchema(
        'workspaceMarkNotificationsRead',
        'Mark some of your notifications (ids) or all of them read',
        { body: markReadBody },
        { 200: z.object({ unread_count: z.number().int() }) },
      ),
    },
    async (request) => ({
      unread_count: await markRead(context.pool, memberOf(request), request.body, context.clock.now()),
    }),
  );

  app.get(
    '/me/notification-preferences',
    {
      schema: workspaceSchema(
        'workspaceGetNotificationPreferences',
        'How you hear of each kind of news: email (and in the app), in_app, or off',
        {},
        { 200: z.object({ preferences: preferencesSchema }) },
      ),
    },
    async (request) => ({ preferences: await readPreferences(context.pool, memberOf(request)) }),
  );

  app.put(
    '/me/notification-preferences',
    {
      schema: workspaceSchema(
        'workspacePutNotificationPreferences',
        'Choose how you hear of each kind of news (every kind at once)',
        { body: z.object({ preferences: preferencesSchema }).strict() },
        { 200: z.object({ preferences: preferencesSchema }) },
      ),
    },
    async (request) => {
      const member = memberOf(request);
      await inTransaction(context.pool, (tx) =>
        writePreferences(tx, member, request.body.preferences, context.clock.now()),
      );
      return { preferences: await readPreferences(context.pool, member) };
    },
  );
}
