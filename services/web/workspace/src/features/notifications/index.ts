/**
 * Notifications' public face: the bell the shell mounts in the header (unread count and the
 * newest notifications), and the choices per kind that Your account shows.
 */
export { NotificationBell } from './notification-bell.tsx';
export { NotificationPreferences } from './notification-preferences.tsx';
