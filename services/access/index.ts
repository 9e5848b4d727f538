/**
 * The access feature as other code may use it: teams, members, accounts, sessions and API
 * keys. Other features and the composition (services/app/) import access only through this
 * file or access/contract/ (a lint rule keeps it so).
 */

// Events and streams
export * from './team-events.ts';
export type * from './api-key-events.ts';
export type * from './workspace/account-events.ts';

// Policies and queries other features use
export { currentMember, type CurrentMember } from './current-member.ts';
export { teamDecider } from './team-decider.ts';
export { logoUrl } from './team-branding.ts';
export { explainUnverified, teamEmailVerified } from './workspace/email-verification.ts';
export { stripeAccountOfTeam, teamOfStripeAccount } from '../../projections/teams/queries.ts';
export {
  recordStripeAccountUpdate,
  type StripeAccountUpdate,
  type StripeAccountUpdateDeps,
} from './stripe-account-update.ts';
export * from './stripe-account-state.ts';

// Public API (/api/v1)
export { authenticate, checkScope, validationShape, type Principal } from './public-auth.ts';
export { meRoutes, type MeRouteDeps } from './me-routes.ts';

// Operator API (/admin/v1)
export { ADMIN_TOKEN_GUESS_WINDOW_SECONDS, operatorTokenCheck } from './operator-auth.ts';
export { apiKeySchema, operatorApiKeyRoutes } from './operator-api-key-routes.ts';
export { memberSchema, operatorTeamRoutes, successSchema, teamSchema } from './operator-team-routes.ts';

// Workspace API (/workspace/v1)
export { accessWorkspaceRoutes, workspaceAccessCheck } from './workspace/workspace-access.ts';
export { signedInView } from './workspace/account-routes.ts';
export { keySchema as workspaceApiKeySchema } from './workspace/api-key-routes.ts';
export { memberSchema as workspaceMemberSchema } from './workspace/member-routes.ts';
export { settingsSchema, teamSettingsRoutes } from './workspace/team-settings-routes.ts';
