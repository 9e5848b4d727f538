import { z } from 'zod';

/**
 * What the workspace and the server share about notifications: the kinds a member is told
 * about, the choice per kind, and the bodies of GET /notifications, POST /notifications/read
 * and GET/PUT /me/notification-preferences. Pure and browser-safe.
 */

/** completed: every required step submitted; resubmitted: answers sent back came back. */
export const NOTIFICATION_KINDS = ['completed', 'resubmitted', 'signed', 'paid', 'overdue'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * One choice per kind (docs/decisions/0083-notification-choices.md): `email` is the bell and
 * an email digest, `in_app` the bell only, `off` nothing. The default is `email`.
 */
export const NOTIFICATION_CHANNELS = ['email', 'in_app', 'off'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export const DEFAULT_CHANNEL: NotificationChannel = 'email';

export const notificationSchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(NOTIFICATION_KINDS),
  onboarding_id: z.string().uuid(),
  /** Null when the client was erased (or is unknown). */
  client_name: z.string().nullable(),
  template_name: z.string(),
  occurred_at: z.string().describe('ISO 8601'),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const NOTIFICATIONS_PAGE_SIZE = 20;

export const notificationsQuery = z.object({
  page: z.coerce.number().int().min(1).max(1000).default(1),
});

export const notificationsAnswer = z.object({
  data: z.array(notificationSchema),
  unread_count: z.number().int(),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type NotificationsAnswer = z.infer<typeof notificationsAnswer>;

/** Mark some (`ids`) or all (`all: true`) of the member's notifications read. */
export const markReadBody = z.union([
  z.object({ ids: z.array(z.string().uuid()).min(1).max(100) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);

export const preferencesSchema = z.object(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, z.enum(NOTIFICATION_CHANNELS)])) as Record<
    NotificationKind,
    z.ZodEnum<['email', 'in_app', 'off']>
  >,
);
export type NotificationPreferences = z.infer<typeof preferencesSchema>;
