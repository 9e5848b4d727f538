/**
 * Notifications' public face for the shell: the bell with the unread count and its list.
 * (Filled in by the notifications work; the shell mounts it beside the account menu.)
 */
export function NotificationBell(): null {
  return null;
}
