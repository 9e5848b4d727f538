/**
 * The onboardings feature as other code may use it. Other features and the composition
 * (services/app/) import onboardings only through this file or onboardings/contract/.
 */

// Events, streams and the decider
export * from './onboarding-events.ts';
export { ONBOARDING_AUDIT_EVENT_TYPES } from './contract/onboarding-audit-events.ts';
export { onboardingDecider, type Onboarding, type OnboardingState } from './decider/index.ts';

// Commands, policies and queries other features use
export { createOnboarding, sendOnboarding, type CommandDeps } from './onboarding-commands.ts';
export { clientFacts, sendFacts, templateFacts } from './onboarding-facts.ts';
export { readOnboarding, runOnboardingCommand } from './onboarding-unit-of-work.ts';
export { deleteClientFiles } from './onboarding-files.ts';
export { knownZone, usageMonth } from './deadlines.ts';
export { DEFAULT_NEW_RECIPIENT_CAP } from './send-policy.ts';

// Consumers and due passes
export { heldInvitesConsumer } from './held-invites-consumer.ts';
export { onboardingTimersPass } from './onboarding-timers-pass.ts';
export { pendingAppendsPass } from './pending-appends-pass.ts';
export { onboardingDocumentsPass } from './documents/documents-pass.ts';

// Public API (/api/v1)
export {
  createdOnboarding,
  onboardingsRoutes,
  patchedOnboarding,
  type OnboardingsRouteDeps,
} from './onboardings-routes.ts';
export { responsesRoutes, type ResponsesRouteDeps } from './responses-routes.ts';

// Operator API (/admin/v1)
export { operatorOnboardingRoutes } from './operator-onboarding-routes.ts';

// Workspace API (/workspace/v1)
export { workspaceOnboardingRoutes } from './workspace-onboarding-routes.ts';
export { workspaceReviewRoutes } from './workspace-review-routes.ts';
export { workspaceTimelineRoutes } from './workspace-timeline-routes.ts';
export { workspaceSignatureRoutes } from './workspace-signature-routes.ts';
export { workspacePaymentRoutes } from './workspace-payment-routes.ts';
export { workspaceDocumentRoutes } from './documents/document-routes.ts';
export { workspaceLinkRoutes } from './workspace-link-routes.ts';
export { batchApproveRoutes } from './review/batch-approve-routes.ts';
export { clientHubRoutes } from './client-hub/client-hub-routes.ts';
export { bulkSendRoutes } from './bulk-send/index.ts';

// Portal (/portal/v1)
export { portalRoutes, type PortalRouteDeps } from './portal/portal-routes.ts';
export {
  PORTAL_PER_IP_LIMIT,
  PORTAL_RATE_WINDOW_SECONDS,
  portalRateLimited,
  TOO_MANY_PORTAL_REQUESTS,
} from './portal/portal-rate-limits.ts';
export { PinAttempts } from './portal/portal-pin-attempts.ts';
export { MAX_FILE_BYTES } from './onboarding-files.ts';
export { faceSchema } from './portal/portal-face.ts';
export { fileSchema, portalOnboarding } from './portal/portal-requests.ts';
