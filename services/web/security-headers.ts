import type { FastifyReply } from 'fastify';
import { sameOriginPolicy } from '../../shared/http/same-origin-policy.ts';

/**
 * Headers of every answer that a browser renders or loads as part of the client's form
 * page (the page, its built assets, team logos). The page is a same-origin single-page app
 * without inline scripts or styles, so the policy allows only the service's own origin
 * (plus data: and blob: images, for previews of files the client picks). No referrer
 * leaves the page: its URL holds the client's token.
 */
export const CONTENT_SECURITY_POLICY = sameOriginPolicy({ img: ['data:', 'blob:'] });

export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

/** Sets the page's security headers on `reply`. */
export function setPageSecurityHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) reply.header(name, value);
}
