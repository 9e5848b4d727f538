import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig, type UserConfig } from 'vite';

/*
 * The build of a web app the service serves (the client's form, the team workspace). The
 * Content-Security-Policy forbids inline scripts and styles, so the module-preload polyfill
 * (an inline script) is off and nothing is inlined into index.html. The output folder is not
 * emptied first: `npm start` builds before it starts (prestart), and a service already
 * running from the same folder keeps finding the hashed files its index.html names; the
 * manifest names the current build.
 */
export function webAppConfig(configUrl: string, base: string): UserConfig {
  return defineConfig({
    root: fileURLToPath(new URL('.', configUrl)),
    base,
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
}
