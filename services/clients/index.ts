/**
 * The clients feature as other code may use it. Other features and the composition
 * (services/app/) import clients only through this file or clients/contract/.
 */

// Events and streams
export * from './client-events.ts';
export type { ClientEmailEvent } from './client-email-index.ts';

// Queries and passes
export { matchesSearch } from './client-search-index.ts';
export { clientSearchIndexPass } from './client-search-job.ts';

// Public API (/api/v1)
export { clientsRoutes, type ClientsRouteDeps } from './clients-routes.ts';

// Operator API (/admin/v1)
export { clientErasureRoutes } from './client-erasure-routes.ts';

// Workspace API (/workspace/v1)
export { workspaceClientRoutes } from './workspace-client-routes.ts';
export { clientImportRoutes } from './import/index.ts';
