import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Answers worth compressing are sent brotli or gzip, as the client accepts
 * (@fastify/compress, registered once on the root by services/app/http-app.ts before the
 * routes): lists, the OpenAPI document, an onboarding with its answers, a CSV export (its
 * stream goes through the compressor as it is read).
 *
 * - JSON (`application/json` and `application/*+json`), and every type mime-db calls
 *   compressible (the plugin's own rule: text/csv, text/html, ...). The pages and the web
 *   apps' files are compressed at build and go out with their Content-Encoding
 *   (services/web/web-routes.ts), which the plugin leaves as they are.
 * - From 1 KiB: below that, the bytes saved do not pay for the CPU and the headers.
 * - Brotli at quality 4 (the plugin's default; 11 costs ten times the CPU for a few per
 *   cent). Small answers are compressed in one call, larger ones through zlib's thread pool,
 *   so a large answer does not hold the event loop.
 * - Never an answer that carries a secret (routes marked SECRET_ANSWER: a new API key, a
 *   CSRF token, a client token, a signing secret). A compressed answer's length can reveal a
 *   secret in it to someone who can make the same answer reflect text of their choice
 *   (BREACH); uncompressed, it cannot.
 */
export const COMPRESSED_TYPES = /^application\/(?:[\w.-]+\+)?json(?:\s*;|$)/i;
export const COMPRESS_FROM_BYTES = 1024;

export async function compressAnswers(app: FastifyInstance): Promise<void> {
  // Runs before the plugin's own onRoute hook, which reads `compress` to leave a route out.
  app.addHook('onRoute', (route) => {
    if (route.config?.secretAnswer === true) route.compress = false;
  });
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSED_TYPES,
    threshold: COMPRESS_FROM_BYTES,
  });
}
