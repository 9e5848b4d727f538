import { webAppConfig } from '../shared/vite-config.ts';

/*
 * The team workspace's pages: assets served by the service under /web/workspace/, the pages
 * at /, /workspace and /workspace/* are dist/index.html (client-side routes).
 */
export default webAppConfig(import.meta.url, '/web/workspace/');
