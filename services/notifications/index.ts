/**
 * The notifications feature as other code may use it (services/app/ composes it): the
 * consumer that writes members' notifications, the due pass that emails their digests,
 * and the workspace routes of the bell and the choices.
 */
export { notificationsConsumer, type NotificationsConsumerDeps } from './notifications-consumer.ts';
export { notificationDigestsPass } from './digest-pass.ts';
export { notificationRoutes } from './notification-routes.ts';
