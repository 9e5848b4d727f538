import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { precompress } from './precompress.ts';
import { NO_PARSER_ALIAS, precompileMessages } from './precompile-messages.ts';

/**
 * Both apps' page: ./index.html, with the <title> and the <noscript> text of the app's own
 * index.html (which holds only those) and the favicon under the app's base path.
 */
function sharedPage(base: string): Plugin {
  const page = readFileSync(fileURLToPath(new URL('./index.html', import.meta.url)), 'utf8');
  return {
    name: 'shared-page',
    transformIndexHtml: {
      order: 'pre',
      handler(own, { filename }) {
        const text = (tag: string) => {
          const found = new RegExp(`<${tag}>([^<]+)</${tag}>`).exec(own)?.[1];
          if (!found) throw new Error(`${filename} names no <${tag}> for the page`);
          return found;
        };
        return page
          .replace('%BASE%', base)
          .replace('%TITLE%', text('title'))
          .replace('%NOSCRIPT%', text('noscript'));
      },
    },
  };
}

/*
 * The build of a web app the service serves (the client's form, the team workspace). The
 * Content-Security-Policy forbids inline scripts and styles, so the module-preload polyfill
 * (an inline script) is off and nothing is inlined into index.html. The output folder is not
 * emptied first: `npm start` builds before it starts (prestart), and a service already
 * running from the same folder keeps finding the hashed files its index.html names; the
 * manifest names the current build. Messages come parsed (./precompile-messages.ts), and every
 * text file gets its brotli and gzip siblings (./precompress.ts).
 */
export function webAppConfig(configUrl: string, base: string): UserConfig {
  return defineConfig({
    root: fileURLToPath(new URL('.', configUrl)),
    base,
    plugins: [
      preact({ devToolsEnabled: false, prefreshEnabled: false }),
      sharedPage(base),
      precompileMessages(),
      precompress(),
    ],
    resolve: { alias: [NO_PARSER_ALIAS] },
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
