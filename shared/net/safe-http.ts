import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { LookupFunction, Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import { checkTargetUrl, isForbiddenAddress, normalizeHost, type TargetUrlProblem } from './public-url.ts';

/**
 * Outbound HTTP for hook deliveries and Send webhook actions: the only way the service
 * calls a URL someone else chose. Every hop of a request (the URL and each redirect):
 *
 * 1. passes the URL guard (public-url.ts checkTargetUrl: HTTPS, no credentials, at most
 *    500 characters, a host that is neither internal-looking nor a forbidden address, and a
 *    name whose every address is public), then
 * 2. connects through a `lookup` that resolves the name again and refuses forbidden
 *    addresses at connect time (a name that changed its answer since the check, DNS
 *    rebinding), and checks the socket's remote address once connected (covers address
 *    literals, which Node connects to without a lookup).
 *
 * Hosts in the allowlist (HOOK_TARGET_ALLOWLIST) skip the address checks, never HTTPS.
 * Redirects are followed by hand (at most 5), with fetch's method rules: 307 and 308
 * repeat the POST with its body; 301, 302 and 303 continue with a GET without body. The
 * whole exchange, redirects included, has one deadline (10 seconds); at most 64 KiB of a
 * response body is read (the rest is dropped, the status still counts). New connection
 * per request (no agent pooling: a pooled socket would skip the connect-time check).
 *
 * TLS trust is Node's: its CA store plus NODE_EXTRA_CA_CERTS; `ca` adds certificates
 * (tests pass the self-signed certificate of their local receiver this way).
 */

export const OUTBOUND_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;
export const MAX_REDIRECTS = 5;

export interface SafeHttpOptions {
  /** Lowercased hosts that may be private or loopback (HOOK_TARGET_ALLOWLIST); HTTPS is still required. */
  allowlist: readonly string[];
  /** Extra trusted certificates (PEM), added to Node's own trust. */
  ca?: string | string[];
  timeoutMs?: number;
  maxResponseBytes?: number;
  maxRedirects?: number;
  /** Every address of a host name (tests stand in for DNS); defaults to dns.lookup(all). */
  resolve?: (host: string) => Promise<string[]>;
}

export interface SafeRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type SafeHttpOutcome =
  | {
      kind: 'response';
      status: number;
      headers: IncomingHttpHeaders;
      /** At most maxResponseBytes of the body, as UTF-8. */
      body: string;
      truncated: boolean;
      /** The URL that answered (after redirects). */
      url: string;
      redirects: number;
    }
  | {
      /** The URL guard or the connect-time check refused a hop; nothing was sent to it. */
      kind: 'refused';
      reason: string;
      url: string;
      redirects: number;
    }
  | {
      /** No usable answer: network, TLS, time-out, too many redirects. */
      kind: 'failed';
      reason: string;
      url: string;
      redirects: number;
    };

const PROBLEM_TEXT: Record<TargetUrlProblem, string> = {
  invalid_url: 'invalid URL',
  too_long: 'URL longer than 500 characters',
  not_https: 'URL is not HTTPS',
  credentials: 'URL holds a username or password',
  internal_name: 'private or internal address',
  forbidden_address: 'private or internal address',
  unresolvable: 'host not found',
  resolves_to_forbidden_address: 'private or internal address',
};

class ForbiddenAddressError extends Error {
  readonly code = 'EFORBIDDENADDRESS';
  constructor(readonly address: string) {
    super(`refused to connect to ${address}: private or internal address`);
  }
}

class DeadlineError extends Error {
  readonly code = 'EDEADLINE';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** POSTs `body` as given (the caller sets content-type); follows redirects with every hop checked. */
export async function safePost(request: SafeRequest, options: SafeHttpOptions): Promise<SafeHttpOutcome> {
  const timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineError('deadline')), timeoutMs);
  let url = request.url;
  let method: 'POST' | 'GET' = 'POST';
  let body: string | undefined = request.body;
  let headers = { ...request.headers };
  try {
    for (let redirects = 0; ; redirects++) {
      const refusal = (text: string) => (redirects === 0 ? text : `redirect refused: ${text}`);
      let check: Awaited<ReturnType<typeof checkTargetUrl>>;
      try {
        check = await withDeadline(
          checkTargetUrl(url, { allowlist: options.allowlist, resolve: options.resolve }),
          controller.signal,
        );
      } catch (error) {
        return { kind: 'failed', reason: failureText(error, controller.signal, timeoutMs), url, redirects };
      }
      if (!check.ok) {
        return { kind: 'refused', reason: refusal(PROBLEM_TEXT[check.problem]), url, redirects };
      }
      let response: IncomingMessage;
      try {
        response = await send(check.url, method, headers, body, options, controller.signal);
      } catch (error) {
        if (error instanceof ForbiddenAddressError) {
          return { kind: 'refused', reason: refusal('private or internal address'), url, redirects };
        }
        return { kind: 'failed', reason: failureText(error, controller.signal, timeoutMs), url, redirects };
      }
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location) {
        response.resume();
        if (redirects >= maxRedirects) {
          return { kind: 'failed', reason: `more than ${maxRedirects} redirects`, url, redirects };
        }
        let next: URL;
        try {
          next = new URL(location, check.url);
        } catch {
          return { kind: 'failed', reason: 'redirect to an invalid URL', url, redirects };
        }
        if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          headers = withoutBodyHeaders(headers);
        }
        url = next.toString();
        continue;
      }
      try {
        const read = await readBody(response, options.maxResponseBytes ?? MAX_RESPONSE_BYTES);
        return { kind: 'response', status, headers: response.headers, ...read, url, redirects };
      } catch (error) {
        // The status arrived; a body cut off (time-out, reset) does not change it.
        if (controller.signal.aborted || isReset(error)) {
          return {
            kind: 'response',
            status,
            headers: response.headers,
            body: '',
            truncated: true,
            url,
            redirects,
          };
        }
        throw error;
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !['content-type', 'content-length'].includes(name.toLowerCase()),
    ),
  );
}

function isAllowlisted(host: string, allowlist: readonly string[]): boolean {
  const normalized = normalizeHost(host);
  return allowlist.some((entry) => normalizeHost(entry) === normalized);
}

function send(
  url: URL,
  method: 'POST' | 'GET',
  headers: Record<string, string>,
  body: string | undefined,
  options: SafeHttpOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const allowlisted = isAllowlisted(url.hostname, options.allowlist);
  const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        protocol: 'https:',
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port === '' ? 443 : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method,
        headers: {
          ...headers,
          ...(payload ? { 'content-length': String(payload.length) } : {}),
        },
        agent: false,
        // Given certificates add to Node's roots (a bare `ca` would replace them).
        ca: options.ca ? [...rootCertificates, ...[options.ca].flat()] : undefined,
        lookup: guardedLookup(allowlisted, options.resolve),
        signal,
      },
      resolve,
    );
    request.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const remote = socket.remoteAddress;
        if (!allowlisted && (remote === undefined || isForbiddenAddress(remote))) {
          request.destroy(new ForbiddenAddressError(remote ?? 'an unknown address'));
        }
      });
    });
    request.on('error', reject);
    request.end(payload);
  });
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The connect-time check: resolves the name (again) and refuses when any address is
 * forbidden, unless the host is allowlisted. Answers in the shape Node asked for
 * (`all: true` with autoSelectFamily, a single address otherwise).
 */
function guardedLookup(allowlisted: boolean, resolve?: (host: string) => Promise<string[]>) {
  const lookup = (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback) => {
    const addresses: Promise<string[]> = resolve
      ? resolve(hostname)
      : new Promise((done, fail) =>
          dnsLookup(hostname, { all: true, verbatim: true }, (error, found) =>
            error ? fail(error) : done(found.map((entry) => entry.address)),
          ),
        );
    addresses.then(
      (found) => {
        if (found.length === 0) {
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
          return;
        }
        const forbidden = found.find((address) => isForbiddenAddress(address));
        if (!allowlisted && forbidden !== undefined) {
          callback(new ForbiddenAddressError(forbidden), []);
          return;
        }
        const entries = found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
        const family = { IPv4: 4, IPv6: 6 }[String(lookupOptions.family)] ?? lookupOptions.family;
        const wanted = family ? entries.filter((entry) => entry.family === family) : entries;
        const usable = wanted.length > 0 ? wanted : entries;
        if (lookupOptions.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
  return lookup as unknown as LookupFunction;
}

async function readBody(
  response: IncomingMessage,
  maxBytes: number,
): Promise<{ body: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    const room = maxBytes - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      truncated = true;
      response.destroy();
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks).toString('utf8'), truncated };
}

function withDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

const isReset = (error: unknown) =>
  ['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'ABORT_ERR'].includes((error as { code?: string }).code ?? '');

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_UNTRUSTED',
]);

/** A short reason for the delivery log and the latest-run line. */
function failureText(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted || error instanceof DeadlineError) {
    const seconds = Math.max(1, Math.round(timeoutMs / 1000));
    return `no answer within ${seconds} second${seconds === 1 ? '' : 's'}`;
  }
  const code = (error as { code?: string }).code ?? '';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection reset';
  if (code === 'ETIMEDOUT') return 'connection timed out';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'host unreachable';
  if (TLS_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL')) {
    return 'TLS certificate not trusted';
  }
  return code ? `network error ${code}` : 'network error';
}
