/**
 * The mail feature as other code may use it. Other features and the composition
 * (services/app/) import mail only through this file or mail/contract/.
 */

// Due passes
export { mailerPass, type MailerDeps } from './mailer.ts';

// Operator API (/admin/v1)
export { emailSchema, emailsRoutes } from './emails-routes.ts';
