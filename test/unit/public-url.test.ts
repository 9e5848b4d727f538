import { describe, expect, it } from 'vitest';
import {
  checkTargetUrl,
  isForbiddenAddress,
  type Resolver,
  type TargetUrlProblem,
} from '../../shared/net/public-url.ts';

/** A resolver for tests: no DNS. Unknown names do not resolve. */
const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.216.34', '127.0.0.1'],
  'v6loop.example.com': ['::1'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'cgnat.example.com': ['100.100.100.100'],
  'ula.example.com': ['fd12:3456::1'],
};
const resolve: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
};
const check = (url: string, allowlist: string[] = []) => checkTargetUrl(url, { allowlist, resolve });

const refused: Array<[string, TargetUrlProblem]> = [
  // scheme, credentials, length, syntax
  ['http://hooks.example.com/hook', 'not_https'],
  ['ftp://hooks.example.com/hook', 'not_https'],
  ['wss://hooks.example.com/hook', 'not_https'],
  ['https://user:secret@hooks.example.com/hook', 'credentials'],
  ['https://user@hooks.example.com/hook', 'credentials'],
  ['https://:secret@hooks.example.com/hook', 'credentials'],
  [`https://hooks.example.com/${'a'.repeat(475)}`, 'too_long'],
  ['not a url', 'invalid_url'],
  ['https://', 'invalid_url'],
  ['https://[::1%25eth0]/', 'invalid_url'],
  // internal-looking names
  ['https://localhost/hook', 'internal_name'],
  ['https://LOCALHOST./hook', 'internal_name'],
  ['https://ｌｏｃａｌｈｏｓｔ/hook', 'internal_name'],
  ['https://api.localhost/hook', 'internal_name'],
  ['https://printer.local/hook', 'internal_name'],
  ['https://metadata.google.internal/computeMetadata/v1/', 'internal_name'],
  ['https://router.lan/hook', 'internal_name'],
  ['https://nas.home.arpa/hook', 'internal_name'],
  ['https://db.localdomain/hook', 'internal_name'],
  ['https://intranet/hook', 'internal_name'],
  ['https://kubernetes/hook', 'internal_name'],
  // IPv4 loopback in every spelling
  ['https://127.0.0.1/hook', 'forbidden_address'],
  ['https://127.0.0.1./hook', 'forbidden_address'],
  ['https://127.1/hook', 'forbidden_address'],
  ['https://2130706433/hook', 'forbidden_address'],
  ['https://0x7f000001/hook', 'forbidden_address'],
  ['https://0x7f.0.0.1/hook', 'forbidden_address'],
  ['https://017700000001/hook', 'forbidden_address'],
  ['https://0177.0.0.1/hook', 'forbidden_address'],
  ['https://%31%32%37.0.0.1/hook', 'forbidden_address'],
  ['https://127。0。0。1/hook', 'forbidden_address'],
  ['https://127.255.255.254/hook', 'forbidden_address'],
  // private, link-local, CGNAT, this network, special ranges
  ['https://10.0.0.1/hook', 'forbidden_address'],
  ['https://012.0.0.1/hook', 'forbidden_address'],
  ['https://172.16.5.4/hook', 'forbidden_address'],
  ['https://172.31.255.255/hook', 'forbidden_address'],
  ['https://192.168.1.1/hook', 'forbidden_address'],
  ['https://3232235777/hook', 'forbidden_address'],
  ['https://169.254.169.254/latest/meta-data/', 'forbidden_address'],
  ['https://0xa9fea9fe/latest/meta-data/', 'forbidden_address'],
  ['https://100.64.0.1/hook', 'forbidden_address'],
  ['https://100.127.255.254/hook', 'forbidden_address'],
  ['https://0.0.0.0/hook', 'forbidden_address'],
  ['https://0/hook', 'forbidden_address'],
  ['https://0.1.2.3/hook', 'forbidden_address'],
  ['https://224.0.0.1/hook', 'forbidden_address'],
  ['https://255.255.255.255/hook', 'forbidden_address'],
  ['https://192.0.2.10/hook', 'forbidden_address'],
  ['https://198.18.0.1/hook', 'forbidden_address'],
  // IPv6
  ['https://[::1]/hook', 'forbidden_address'],
  ['https://[0:0:0:0:0:0:0:1]/hook', 'forbidden_address'],
  ['https://[::]/hook', 'forbidden_address'],
  ['https://[fd00::1]/hook', 'forbidden_address'],
  ['https://[fc00::1]/hook', 'forbidden_address'],
  ['https://[fe80::1]/hook', 'forbidden_address'],
  ['https://[ff02::1]/hook', 'forbidden_address'],
  ['https://[2001:db8::1]/hook', 'forbidden_address'],
  // IPv6 forms that embed a private IPv4 address
  ['https://[::ffff:127.0.0.1]/hook', 'forbidden_address'],
  ['https://[::ffff:7f00:1]/hook', 'forbidden_address'],
  ['https://[0:0:0:0:0:ffff:a9fe:a9fe]/hook', 'forbidden_address'],
  ['https://[::ffff:10.0.0.1]/hook', 'forbidden_address'],
  ['https://[::127.0.0.1]/hook', 'forbidden_address'],
  ['https://[64:ff9b::a9fe:a9fe]/hook', 'forbidden_address'],
  ['https://[2002:7f00:1::]/hook', 'forbidden_address'],
  // names that resolve to such addresses
  ['https://internal.example.com/hook', 'resolves_to_forbidden_address'],
  ['https://mixed.example.com/hook', 'resolves_to_forbidden_address'],
  ['https://v6loop.example.com/hook', 'resolves_to_forbidden_address'],
  ['https://mapped.example.com/hook', 'resolves_to_forbidden_address'],
  ['https://metadata.example.com/hook', 'resolves_to_forbidden_address'],
  ['https://cgnat.example.com/hook', 'resolves_to_forbidden_address'],
  ['https://ula.example.com/hook', 'resolves_to_forbidden_address'],
  ['https://nowhere.example.com/hook', 'unresolvable'],
];

const accepted: Array<[string, string[]]> = [
  ['https://hooks.example.com/hook?x=1', []],
  ['https://HOOKS.example.com:8443/a/b#frag', []],
  ['https://93.184.216.34/hook', []],
  ['https://[2606:4700:4700::1111]/hook', []],
  [`https://hooks.example.com/${'a'.repeat(474)}`, []],
  // allowlisted hosts (tests): loopback allowed, HTTPS still required
  ['https://localhost:9443/hook', ['localhost']],
  ['https://127.0.0.1:9443/hook', ['127.0.0.1']],
  ['https://[::1]:9443/hook', ['::1']],
];

describe('checkTargetUrl', () => {
  it('has at least 30 refused cases', () => {
    expect(refused.length).toBeGreaterThanOrEqual(30);
  });

  it.each(refused)('refuses %s (%s)', async (url, problem) => {
    expect(await check(url)).toEqual({ ok: false, problem });
  });

  it.each(accepted)('accepts %s (allowlist %j)', async (url, allowlist) => {
    const result = await check(url, allowlist);
    expect(result.ok).toBe(true);
  });

  it('the 500-character limit counts the whole URL', async () => {
    const base = 'https://hooks.example.com/';
    expect((await check(base + 'a'.repeat(500 - base.length))).ok).toBe(true);
    expect(await check(base + 'a'.repeat(501 - base.length))).toEqual({ ok: false, problem: 'too_long' });
  });

  it('the allowlist never waives HTTPS or the credentials rule', async () => {
    expect(await check('http://localhost:9443/hook', ['localhost'])).toEqual({
      ok: false,
      problem: 'not_https',
    });
    expect(await check('https://a:b@localhost:9443/hook', ['localhost'])).toEqual({
      ok: false,
      problem: 'credentials',
    });
  });

  it('the allowlist only lets its own hosts through', async () => {
    expect(await check('https://127.0.0.2/hook', ['127.0.0.1'])).toEqual({
      ok: false,
      problem: 'forbidden_address',
    });
    expect(await check('https://api.localhost/hook', ['localhost'])).toEqual({
      ok: false,
      problem: 'internal_name',
    });
  });

  it('does not resolve addresses or allowlisted hosts', async () => {
    const names: string[] = [];
    const spy: Resolver = async (host) => {
      names.push(host);
      return ['93.184.216.34'];
    };
    await checkTargetUrl('https://93.184.216.34/', { allowlist: [], resolve: spy });
    await checkTargetUrl('https://localhost/', { allowlist: ['localhost'], resolve: spy });
    await checkTargetUrl('https://hooks.example.com/', { allowlist: [], resolve: spy });
    expect(names).toEqual(['hooks.example.com']);
  });
});

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '0.255.1.1',
    '224.0.0.251',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    'fd00::1',
    'fe80::1%eth0',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '2130706433',
    '0x7f.1',
    'localhost',
    '',
    'not an address',
  ])('forbids %j', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (ip) => {
      expect(isForbiddenAddress(ip)).toBe(false);
    },
  );
});
