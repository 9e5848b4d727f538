import { describe, expect, it } from 'vitest';
import { tokenFromPath } from './api.ts';
import { contrastWithWhite, readableAccent } from './branding.ts';

const rgb = (hex: string) =>
  [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)) as [number, number, number];

describe('readableAccent', () => {
  it('keeps a dark accent and darkens a light one until white text on it reaches 4.5:1', () => {
    expect(readableAccent('#1d4ed8')).toBe('#1d4ed8');
    const light = readableAccent('#ffcc00')!;
    expect(light).not.toBe('#ffcc00');
    expect(contrastWithWhite(rgb(light))).toBeGreaterThanOrEqual(4.5);
    expect(contrastWithWhite(rgb(readableAccent('#fff')!))).toBeGreaterThanOrEqual(4.5);
  });

  it('ignores anything that is not a hex colour', () => {
    expect(readableAccent('red; background: url(x)')).toBeNull();
    expect(readableAccent(null)).toBeNull();
  });
});

describe('tokenFromPath', () => {
  it('reads the token of /f/<token> only', () => {
    expect(tokenFromPath('/f/abc123')).toBe('abc123');
    expect(tokenFromPath('/f/abc123/')).toBe('abc123');
    expect(tokenFromPath('/web/index.html')).toBeNull();
    expect(tokenFromPath('/f/a/b')).toBeNull();
  });
});
