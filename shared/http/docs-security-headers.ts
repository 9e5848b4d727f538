import type { FastifyReply } from 'fastify';
import { sameOriginPolicy } from './same-origin-policy.ts';

/**
 * Headers of every answer under /docs (the Swagger UI of @fastify/swagger-ui: its page,
 * scripts, styles and images), the same protections as the service's other pages
 * (services/web/security-headers.ts). The UI loads only files of its own origin (no inline
 * script or style in its page; its logo is a data: image) and calls only this origin
 * (/docs/json and "Try it out"), so the policy allows 'self' without 'unsafe-inline' (plus
 * the hash of the one style element its bundle injects); the
 * validator badge is off (validatorUrl false), so no image comes from elsewhere. No framing
 * (frame-ancestors 'none' and X-Frame-Options DENY), no type sniffing, no referrer.
 */
/**
 * The one style element that swagger-ui-bundle.js injects (the same text in every page): allowed
 * by its hash, never by 'unsafe-inline'. A new @fastify/swagger-ui may inject another text:
 * test/browser/api-docs.test.ts then fails on the violation, which names the new hash.
 */
export const SWAGGER_UI_STYLE_HASH = 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w=';

export const DOCS_CONTENT_SECURITY_POLICY = sameOriginPolicy({
  style: [`'${SWAGGER_UI_STYLE_HASH}'`],
  img: ['data:'],
});

export const DOCS_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function setDocsSecurityHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(DOCS_SECURITY_HEADERS)) reply.header(name, value);
}
