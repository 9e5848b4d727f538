import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/*
 * The team workspace's pages. Assets are served by the service under /web/workspace/ and
 * the pages at /, /workspace and /workspace/* are dist/index.html (client-side routes). As
 * for the client's form, the Content-Security-Policy forbids inline scripts and styles, so
 * nothing is inlined and the module-preload polyfill is off; the output folder is not
 * emptied first, so a running service keeps finding the files its index.html names.
 */
export default defineConfig({
  root,
  base: '/web/workspace/',
  plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false })],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    manifest: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2020',
    sourcemap: false,
  },
});
