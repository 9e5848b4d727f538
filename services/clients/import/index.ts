/** Importing clients from a CSV file (docs/decisions/0087-client-import.md). */
export { clientImportRoutes } from './import-routes.ts';
export { importClients, existingClients } from './import-clients.ts';
export { planImport } from './import-plan.ts';
