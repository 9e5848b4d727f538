/**
 * The notifications feature's calls of the workspace API through the shared typed client:
 * the bell's page and unread count, marking read, and the member's choices per kind.
 */
import { call } from '../../../../shared/api/client.ts';
import type { NotificationPreferences } from '../../../../../notifications/contract/notifications.ts';
import { api } from '../../api.ts';

export const getNotifications = (page = 1) =>
  call(api.GET('/workspace/v1/notifications', { params: { query: { page } } }));

export const markRead = (which: { ids: string[] } | { all: true }) =>
  call(api.POST('/workspace/v1/notifications/read', { body: which }));

export const getPreferences = () => call(api.GET('/workspace/v1/me/notification-preferences'));

export const putPreferences = (preferences: NotificationPreferences) =>
  call(api.PUT('/workspace/v1/me/notification-preferences', { body: { preferences } }));
