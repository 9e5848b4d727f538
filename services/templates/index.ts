/**
 * The templates feature as other code may use it. Other features and the composition
 * (services/app/) import templates only through this file or templates/contract/.
 */

// Events and streams
export * from './template-events.ts';

// Views
export { templateFieldSchema, templateSchema, templateStepSchema } from './template-view.ts';

// Public API (/api/v1)
export {
  listItemSchema as templateListItemSchema,
  templatesRoutes,
  type TemplatesRouteDeps,
} from './templates-routes.ts';

// Operator API (/admin/v1)
export { operatorTemplateRoutes } from './operator-template-routes.ts';

// Workspace API (/workspace/v1)
export { workspaceTemplateRoutes } from './workspace-template-routes.ts';
