import type { TrustProxy } from '../config/settings.ts';

/** fastify's trustProxy for a peer address and its distance from the service (0: the socket's peer). */
export type TrustFunction = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY (shared/config/settings.ts) as fastify's `trustProxy`; request.ip is then the
 * address appended by the nearest trusted proxy (proxy-addr walks X-Forwarded-For from the
 * right and stops at the first untrusted entry):
 * - false: nobody, the socket's peer is the client;
 * - a number N: the N nearest hops are proxies, whatever their addresses. fastify itself
 *   refuses a bare number (it cannot tell a proxy from a client that connects directly),
 *   so it gets this function: N hops assume the service is reachable through the proxies
 *   only (HOST bound to an internal address); otherwise name the proxies' addresses;
 * - addresses and CIDR ranges (and loopback, linklocal, uniquelocal): those peers only.
 */
export function fastifyTrustProxy(setting: TrustProxy): false | string[] | TrustFunction {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}
