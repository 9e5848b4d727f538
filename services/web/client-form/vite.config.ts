import { webAppConfig } from '../shared/vite-config.ts';

/* The client's form page: assets served by the service under /web/, the page at /f/:token is dist/index.html. */
export default webAppConfig(import.meta.url, '/web/');
