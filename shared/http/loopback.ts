import type { FastifyRequest } from 'fastify';

/** 127.0.0.0/8, ::1, and IPv4 loopback written as an IPv4-mapped IPv6 address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address);
}

/**
 * A request from this machine: the connection's peer is loopback AND so is the client IP
 * (request.ip, which behind TRUST_PROXY is the entry the nearest trusted proxy appended).
 * X-Forwarded-For cannot open a loopback-only route: a client far away is not loopback
 * however its header reads, and behind a proxy on this machine the proxy's entry names
 * the real client.
 */
export function fromLoopback(request: FastifyRequest): boolean {
  return isLoopbackAddress(request.socket.remoteAddress) && isLoopbackAddress(request.ip);
}
