/**
 * Short links in client-facing text (spec: 422 link_blocked). Invite and reminder emails
 * and the client's form show this text to the client; a short link there hides where it
 * leads, the classic phishing pattern, so the service refuses it.
 *
 * This is the ONE list of short-link hosts. A host blocks itself and every subdomain
 * (`bit.ly`, `www.bit.ly`, `on.bit.ly`), with or without a scheme or a path, in any letter
 * case, also when written with full-width or ideographic dots. A longer name that only
 * contains one (`rabbit.ly`, `bit.lyrics.com`) does not block.
 */
export const SHORT_LINK_HOSTS: readonly string[] = [
  'bit.ly',
  'bitly.com',
  'bit.do',
  'j.mp',
  'tinyurl.com',
  'tiny.cc',
  'tiny.one',
  't.co',
  'goo.gl',
  'ow.ly',
  'is.gd',
  'v.gd',
  'buff.ly',
  'rebrand.ly',
  'rebrandly.com',
  'cutt.ly',
  'shorturl.at',
  'shorturl.com',
  'rb.gy',
  'bl.ink',
  't.ly',
  's.id',
  'short.io',
  'short.gy',
  'shorte.st',
  'adf.ly',
  'bc.vc',
  'ouo.io',
  'soo.gd',
  'clck.ru',
  'qr.ae',
  'lnkd.in',
  'db.tt',
  'x.co',
  'tr.im',
  'u.to',
  'urlz.fr',
  'chilp.it',
  'tiny.pl',
  'snip.ly',
  'shorturl.ly',
];

/** Host-like tokens: labels of letters, digits and hyphens joined by dots. */
const HOST_TOKEN = /[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
/** Dots a browser or mail client treats as a dot in a host name (UTS #46). */
const DOT_VARIANTS = /[\u3002\uff0e\uff61]/g;

/** The short-link host found in `text`, or undefined. */
export function findShortLink(text: string): string | undefined {
  const normalized = text.normalize('NFKC').replace(DOT_VARIANTS, '.').toLowerCase();
  for (const match of normalized.matchAll(HOST_TOKEN)) {
    const token = match[0].replace(/^-+|-+$/g, '');
    const host = SHORT_LINK_HOSTS.find((candidate) => token === candidate || token.endsWith(`.${candidate}`));
    if (host) return host;
  }
  return undefined;
}

/** Every string inside a JSON value (object values and array items, at any depth). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}
