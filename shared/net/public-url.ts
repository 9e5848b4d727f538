import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * The guard for URLs the service will call (hook targets, webhook actions).
 *
 * - `isForbiddenAddress(ip)`: is this address private, loopback, link-local, internal or
 *   otherwise not public unicast? Used here and again at connect time by the delivery
 *   code, so a name that changes its DNS answer after the check is still refused.
 * - `checkTargetUrl(url, { allowlist, resolve })`: the whole check of a target URL:
 *   HTTPS, at most 500 characters, no username or password, a host that is neither an
 *   internal-looking name nor a forbidden address, and a name whose every resolved
 *   address is public. Hosts in the allowlist (HOOK_TARGET_ALLOWLIST) skip the host and
 *   address checks, never the HTTPS, length and credentials checks.
 *
 * Hosts are read through the WHATWG URL parser (the one every Node HTTP client uses), so
 * the host checked is the host connected to: decimal, octal, hex and short IPv4 forms,
 * percent-encoded and full-width spellings are normalised to the dotted address first.
 */

export const MAX_TARGET_URL_LENGTH = 500;

export type TargetUrlProblem =
  | 'invalid_url'
  | 'too_long'
  | 'not_https'
  | 'credentials'
  | 'internal_name'
  | 'forbidden_address'
  | 'unresolvable'
  | 'resolves_to_forbidden_address';

export type TargetUrlCheck = { ok: true; url: URL; host: string } | { ok: false; problem: TargetUrlProblem };

/** Resolves a host name to every address it has (A and AAAA). */
export type Resolver = (host: string) => Promise<string[]>;

export interface TargetUrlOptions {
  /** Lowercased hosts that may be private or loopback (tests); HTTPS is still required. */
  allowlist: readonly string[];
  /** Defaults to `dns.lookup(host, { all: true })` with a 5-second limit. */
  resolve?: Resolver;
}

/**
 * Name suffixes that only make sense inside a private network (RFC 6761, RFC 6762,
 * RFC 8375, ICANN's .internal) or are reserved and never public.
 */
const INTERNAL_SUFFIXES = [
  'localhost',
  'local',
  'localdomain',
  'internal',
  'intranet',
  'private',
  'corp',
  'home',
  'lan',
  'home.arpa',
  'test',
  'example',
  'invalid',
  'onion',
  'arpa',
];

/** IPv6 prefixes ipaddr.js calls unicast that still must not be reached. */
const EXTRA_FORBIDDEN_V6 = [
  ipaddr.parseCIDR('::/96'), // IPv4-compatible (deprecated): ::127.0.0.1
  ipaddr.parseCIDR('64:ff9b:1::/48'), // local-use NAT64 (RFC 8215)
];

/**
 * True when `ip` must not be connected to: anything that is not public unicast. Covers
 * 0.0.0.0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12, 192.168/16, multicast,
 * broadcast, reserved and documentation ranges; ::, ::1, fc00::/7, fe80::/10, multicast,
 * and IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo).
 * Unparseable input is forbidden (fail closed).
 */
export function isForbiddenAddress(ip: string): boolean {
  const text = ip.trim().replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.isValid(text)) return true;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(text);
  } catch {
    return true;
  }
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isForbiddenAddress(v6.toIPv4Address().toString());
    if (EXTRA_FORBIDDEN_V6.some((range) => v6.match(range))) return true;
    return v6.range() !== 'unicast';
  }
  return address.range() !== 'unicast';
}

/** True when `host` (a name, not an address) looks internal: single label or an internal suffix. */
export function isInternalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  if (name === '' || !name.includes('.')) return true;
  return INTERNAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/** The host as compared with the allowlist: lowercased, without brackets or a trailing dot. */
export function normalizeHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '');
}

/**
 * The checks that need no network. Returns the URL and whether its host still has to be
 * resolved (a name outside the allowlist).
 */
export function checkTargetUrlShape(
  input: string,
  allowlist: readonly string[],
): { ok: true; url: URL; host: string; resolveHost: boolean } | { ok: false; problem: TargetUrlProblem } {
  if (input.length > MAX_TARGET_URL_LENGTH) return { ok: false, problem: 'too_long' };
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, problem: 'invalid_url' };
  }
  if (url.protocol !== 'https:') return { ok: false, problem: 'not_https' };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'credentials' };
  const host = normalizeHost(url.hostname);
  if (host === '') return { ok: false, problem: 'invalid_url' };
  if (allowlist.map(normalizeHost).includes(host)) return { ok: true, url, host, resolveHost: false };
  if (ipaddr.isValid(host) || url.hostname.startsWith('[')) {
    return isForbiddenAddress(host)
      ? { ok: false, problem: 'forbidden_address' }
      : { ok: true, url, host, resolveHost: false };
  }
  // A name made of digits and dots the URL parser did not turn into an address is not a name.
  if (/^[0-9.]+$/.test(host) || /^0x[0-9a-f]+$/i.test(host.split('.').pop() ?? '')) {
    return { ok: false, problem: 'forbidden_address' };
  }
  if (isInternalName(host)) return { ok: false, problem: 'internal_name' };
  return { ok: true, url, host, resolveHost: true };
}

/** The whole check, including every address the name resolves to. */
export async function checkTargetUrl(input: string, options: TargetUrlOptions): Promise<TargetUrlCheck> {
  const shape = checkTargetUrlShape(input, options.allowlist);
  if (!shape.ok) return shape;
  if (!shape.resolveHost) return { ok: true, url: shape.url, host: shape.host };
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? resolveAll)(shape.host);
  } catch {
    return { ok: false, problem: 'unresolvable' };
  }
  if (addresses.length === 0) return { ok: false, problem: 'unresolvable' };
  if (addresses.some(isForbiddenAddress)) return { ok: false, problem: 'resolves_to_forbidden_address' };
  return { ok: true, url: shape.url, host: shape.host };
}

const RESOLVE_TIMEOUT_MS = 5000;

/** Every A and AAAA address of `host`, as the operating system's resolver gives them. */
export async function resolveAll(host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`resolving ${host} timed out`)), RESOLVE_TIMEOUT_MS);
  });
  try {
    const answers = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return answers.map((answer) => answer.address);
  } finally {
    clearTimeout(timer);
  }
}
