import { describe, expect, it } from 'vitest';
import { MAX_LOGO_BYTES } from './contract/logo-limits.ts';
import { accentColorProblem, contrastAgainstWhite, logoUrl, readLogoDataUrl } from './team-branding.ts';

// The smallest valid PNG: 1x1, transparent.
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const dataUrl = (type: string, content: Buffer) => `data:${type};base64,${content.toString('base64')}`;

describe('contrastAgainstWhite', () => {
  it('follows WCAG 2.2', () => {
    expect(contrastAgainstWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastAgainstWhite('#ffffff')).toBeCloseTo(1, 5);
    expect(contrastAgainstWhite('#767676')).toBeCloseTo(4.54, 2);
    expect(contrastAgainstWhite('#777777')).toBeCloseTo(4.48, 2);
  });
});

describe('accentColorProblem', () => {
  it('accepts dark enough colors, in either case', () => {
    for (const color of ['#000000', '#1D4ED8', '#767676', '#b91c1c']) {
      expect(accentColorProblem(color)).toBeNull();
    }
  });

  it('refuses light colors with the ratio it found', () => {
    expect(accentColorProblem('#777777')).toBe(
      'accent_color #777777 has a contrast ratio of 4.47:1 against white; at least 4.5:1 is needed (choose a darker color)',
    );
    expect(accentColorProblem('#ffff00')).toMatch(/^accent_color #ffff00 has a contrast ratio of 1\.07:1/);
  });

  it('refuses what is not #rrggbb', () => {
    for (const color of ['#000', 'black', '#0000001', '000000']) {
      expect(accentColorProblem(color)).toBe('accent_color must be a color in the form #rrggbb');
    }
  });
});

describe('readLogoDataUrl', () => {
  it('takes the type from the bytes', async () => {
    const logo = await readLogoDataUrl(dataUrl('image/jpeg', TINY_PNG));
    expect(logo).toMatchObject({ content_type: 'image/png', size_bytes: TINY_PNG.length });
    expect((logo as { sha256: string }).sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses other types, oversized and malformed URLs', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    expect(await readLogoDataUrl(dataUrl('image/png', gif))).toEqual({
      problem: 'logo must be a PNG, JPEG or WebP image',
    });
    expect(await readLogoDataUrl(dataUrl('image/png', Buffer.from('<svg/>')))).toHaveProperty('problem');
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(MAX_LOGO_BYTES)]);
    expect(await readLogoDataUrl(dataUrl('image/png', big))).toEqual({
      problem: 'logo is larger than 256 KiB',
    });
    expect(await readLogoDataUrl('https://example.com/logo.png')).toHaveProperty('problem');
    expect(await readLogoDataUrl('data:image/png;base64,')).toEqual({ problem: 'logo is empty' });
  });
});

describe('logoUrl', () => {
  it('names the logo by team and a short hash', () => {
    expect(logoUrl('t1', 'abcdef0123456789')).toBe('/brand/t1/logo?v=abcdef012345');
    expect(logoUrl('t1', null)).toBeNull();
  });
});
