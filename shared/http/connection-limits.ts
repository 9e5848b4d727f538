import { readFileSync } from 'node:fs';
import type { Server, Socket } from 'node:net';

/**
 * How long the HTTP server holds a connection that sends slowly or nothing, and how many
 * it holds, so that idle and trickling sockets cannot use up the process's file
 * descriptors (then no one, not even /healthz, would get an answer).
 *
 * - headers within HEADERS_TIMEOUT_MS of the request's start, the whole request (headers
 *   and body) within REQUEST_TIMEOUT_MS: a trickled body is cut with 408;
 * - an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS;
 * - a connection with no traffic either way for CONNECTION_TIMEOUT_MS is closed (longer than
 *   the slowest answer, the 30-second work drain);
 * - at most MAX_CONNECTIONS_PER_IP open connections per peer address (a further one is
 *   closed at once), and a total cap below the process's open-file limit.
 *
 * Behind a proxy (TRUST_PROXY) every connection comes from the proxy: the per-address cap
 * is left to the proxy.
 */
export const SERVER_TIMEOUTS = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  connectionTimeoutMs: 60_000,
  /** How often Node looks for requests past their headers or request timeout. */
  checkingIntervalMs: 1_000,
} as const;

export const MAX_CONNECTIONS_PER_IP = 128;
/** Descriptors kept for everything else: database pools, files, outbound requests. */
const RESERVED_DESCRIPTORS = 256;
const DEFAULT_MAX_CONNECTIONS = 4096;

/** The soft limit of open files of this process (Linux), if it can be read. */
function openFileLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((row) => row.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) && soft > 0 ? soft : undefined;
  } catch {
    return undefined;
  }
}

export function maxConnections(): number {
  const limit = openFileLimit();
  if (limit === undefined) return DEFAULT_MAX_CONNECTIONS;
  return Math.max(32, Math.min(DEFAULT_MAX_CONNECTIONS, limit - RESERVED_DESCRIPTORS));
}

/** Closes a new connection at once when its peer address already holds `perAddress` open ones. */
export function capConnectionsPerAddress(server: Server, perAddress = MAX_CONNECTIONS_PER_IP): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
