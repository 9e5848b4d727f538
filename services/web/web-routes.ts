import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setPageSecurityHeaders } from './security-headers.ts';

/**
 * The client's form page (services/web/client-form, built by `npm run build:web` into
 * dist/):
 *
 * - GET and HEAD /f/:token answer the built index.html as it is. The page reads the
 *   token from its own URL and talks to the portal API itself, so this route reads no
 *   database and records nothing; it never says whether the token exists. no-store: the
 *   URL holds the client's token, and the page must follow every rebuild.
 * - /web/* serves the built files (Vite's `base: '/web/'`). Files under /web/assets/
 *   have content hashes in their names, so they are cached for a year, immutable.
 *
 * The team workspace's pages (services/web/workspace, built by the same script):
 *
 * - GET and HEAD /, /workspace and /workspace/* (the app's client-side routes, such as
 *   /workspace/invitations/:token and /workspace/reset-password/:token) answer its built
 *   index.html, no-store. The JSON API under /workspace/v1 is registered by its own plugin
 *   with more specific routes; an unknown path under it answers the service's JSON 404.
 * - /web/workspace/* serves its built files, like /web/*.
 *
 * Every answer carries the page's security headers (./security-headers.ts). When a page
 * is not built, its routes answer 503 with a short page that says so.
 *
 * Pages and files go out compressed as the build wrote them (./shared/precompress.ts): brotli
 * or gzip as the browser accepts, with Content-Encoding and `Vary: accept-encoding`; a file
 * without a compressed sibling goes out as it is.
 */

export const DEFAULT_DIST_DIR = fileURLToPath(new URL('./client-form/dist/', import.meta.url));
export const DEFAULT_WORKSPACE_DIST_DIR = fileURLToPath(new URL('./workspace/dist/', import.meta.url));

const API_PATH = /^\/workspace\/v1(?:[/?#]|$)/;
const ASSET_CACHE = 'public, max-age=31536000, immutable';
const OTHER_FILE_CACHE = 'no-cache';
const HTML = 'text/html; charset=utf-8';

export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Page not built</title></head>
<body>
<h1>This page is not built</h1>
<p>Run <code>npm run build:web</code> and restart the service.</p>
</body>
</html>
`;

/** The page's encodings the build writes, best first (./shared/precompress.ts). */
const PAGE_ENCODINGS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/**
 * Answers a built index.html (no-store), compressed as the browser accepts when the build
 * wrote it so, or 503 when it is not built.
 */
async function sendPage(request: FastifyRequest, reply: FastifyReply, distDir: string) {
  reply.header('Cache-Control', 'no-store').header('Vary', 'accept-encoding');
  const accepted = negotiate(
    request.headers['accept-encoding'] ?? '',
    PAGE_ENCODINGS.map(({ encoding }) => encoding),
  );
  const chosen = PAGE_ENCODINGS.find(({ encoding }) => encoding === accepted);
  const compressed = chosen && (await readIfBuilt(join(distDir, `index.html${chosen.suffix}`)));
  if (chosen && compressed) {
    return reply.header('Content-Encoding', chosen.encoding).type(HTML).send(compressed);
  }
  const page = await readIfBuilt(join(distDir, 'index.html'));
  if (!page) return reply.status(503).type(HTML).send(NOT_BUILT_PAGE);
  return reply.type(HTML).send(page);
}

/** A built file, or null when it is not there. */
async function readIfBuilt(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
    return null;
  }
}

export async function webRoutes(
  app: FastifyInstance,
  {
    distDir = DEFAULT_DIST_DIR,
    workspaceDistDir = DEFAULT_WORKSPACE_DIST_DIR,
  }: { distDir?: string; workspaceDistDir?: string } = {},
) {
  app.addHook('onSend', async (_request, reply) => {
    setPageSecurityHeaders(reply);
  });

  app.get('/f/:token', { schema: { hide: true } }, async (request, reply) =>
    sendPage(request, reply, distDir),
  );

  for (const path of ['/', '/workspace', '/workspace/*']) {
    app.get(path, { schema: { hide: true } }, async (request, reply) =>
      // An unknown API path stays the API's JSON 404, never the page.
      API_PATH.test(request.url) ? reply.callNotFound() : sendPage(request, reply, workspaceDistDir),
    );
  }

  await app.register(fastifyStatic, staticFiles(workspaceDistDir, '/web/workspace/'));
  await app.register(fastifyStatic, staticFiles(distDir, '/web/'));
}

/** A built app's files: hashed assets cached for a year, the rest revalidated; compressed siblings sent when accepted. */
function staticFiles(distDir: string, prefix: string): FastifyStaticOptions {
  return {
    root: distDir,
    prefix,
    decorateReply: false,
    wildcard: true,
    index: false,
    dotfiles: 'deny',
    cacheControl: false,
    preCompressed: true,
    suppressWarning: true,
    setHeaders: (reply, path) => {
      const asset = relative(distDir, path).startsWith(`assets${sep}`);
      reply.header('Cache-Control', asset ? ASSET_CACHE : OTHER_FILE_CACHE);
    },
  };
}
