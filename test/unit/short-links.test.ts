import { describe, expect, it } from 'vitest';
import { findShortLink, SHORT_LINK_HOSTS, stringsIn } from '../../services/clients/short-links.ts';

describe('short links', () => {
  it.each([
    ['https://bit.ly/3abc', 'bit.ly'],
    ['see bit.ly/3abc', 'bit.ly'],
    ['BIT.LY/ABC', 'bit.ly'],
    ['www.tinyurl.com/y7', 'tinyurl.com'],
    ['http://t.co/x', 't.co'],
    ['(goo.gl)', 'goo.gl'],
    ['mail me at x@ow.ly', 'ow.ly'],
    ['is.gd', 'is.gd'],
    ['on.rebrand.ly/x', 'rebrand.ly'],
    ['cutt.ly/abc, shorturl.at/xyz', 'cutt.ly'],
    ['bit．ly/abc', 'bit.ly'],
    ['bit。ly/abc', 'bit.ly'],
    ['ｂｉｔ.ｌｙ/abc', 'bit.ly'],
  ])('finds a short link in %j', (text, host) => {
    expect(findShortLink(text)).toBe(host);
  });

  it.each([
    'Ada Lovelace',
    'rabbit.ly',
    'bit.lyrics.com',
    'tinyurl.company.com',
    'Analytical Engines Ltd.',
    'e.g. the t.c.o. report',
    '',
  ])('lets %j through', (text) => {
    expect(findShortLink(text)).toBeUndefined();
  });

  it('keeps hosts lowercased and unique', () => {
    expect(new Set(SHORT_LINK_HOSTS).size).toBe(SHORT_LINK_HOSTS.length);
    for (const host of SHORT_LINK_HOSTS) expect(host).toBe(host.toLowerCase());
  });

  it('collects every string of a JSON value', () => {
    expect(stringsIn({ a: 'x', b: [1, 'y', { c: 'z' }], d: null, e: true })).toEqual(['x', 'y', 'z']);
  });
});
