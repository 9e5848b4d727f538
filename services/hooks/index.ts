/**
 * The hooks feature as other code may use it. Other features and the composition
 * (services/app/) import hooks only through this file or hooks/contract/.
 */

// Events and streams
export type * from './hook-subscription-events.ts';
export type { DeliveryLogEvent } from './delivery-log-decider.ts';
export type { HookSigningEvent } from './hook-signing-decider.ts';
export type { WebhookEndpointEvent } from './webhook-endpoint-decider.ts';

// What other features use
export { isoMicros, onboardingAt } from './event-moment.ts';
export { hookPayloadDocument } from './hook-payload-document.ts';

// Consumers and due passes
export {
  hookDeliveriesConsumer,
  hookDeliveriesPass,
  type HookDeliveriesConsumerDeps,
  type HookDeliveryPassDeps,
} from './hook-deliveries.ts';

// Public API (/api/v1)
export { hookSubscriptionsRoutes, type HookSubscriptionsRouteDeps } from './hook-subscriptions-routes.ts';

// Operator API (/admin/v1)
export { deliverySchema, endpointSchema, signedDeliveryRoutes } from './signed-delivery-routes.ts';

// Workspace API (/workspace/v1)
export { subscriptionSchema, workspaceHookRoutes } from './workspace-hook-routes.ts';
export { workspaceDeliveryRoutes } from './workspace-delivery-routes.ts';
