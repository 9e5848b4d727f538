/**
 * The automation feature as other code may use it. Other features and the composition
 * (services/app/) import automation only through this file or automation/contract/.
 */

// Events and streams
export * from './automation-rule-events.ts';

// What other features use
export { eraseClientFromRuns } from './client-erasure-runs.ts';

// Consumers and due passes
export { automationRulesConsumer, type AutomationRulesConsumerDeps } from './automation-consumer.ts';
export { automationQueuePass, type AutomationQueueDeps } from './automation-queue.ts';

// Operator API (/admin/v1)
export { actionSchema, automationRulesRoutes, ruleSchema } from './automation-rules-routes.ts';

// Workspace API (/workspace/v1)
export { workspaceRuleRoutes, workspaceRuleSchema } from './workspace-rule-routes.ts';
