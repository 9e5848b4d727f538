import { describe, expect, it } from 'vitest';
import { copyText } from './copy-rows.ts';

describe('copyText: one value in COPY text format', () => {
  it('writes null and undefined as \\N, booleans as t and f, dates as ISO', () => {
    expect(copyText(null)).toBe('\\N');
    expect(copyText(undefined)).toBe('\\N');
    expect(copyText(true)).toBe('t');
    expect(copyText(false)).toBe('f');
    expect(copyText(new Date('2026-11-29T04:00:00.000Z'))).toBe('2026-11-29T04:00:00.000Z');
    expect(copyText(12n)).toBe('12');
  });

  it('escapes backslash, newline, carriage return and tab, and nothing else', () => {
    expect(copyText('a\\b\nc\rd\te "é" \\N')).toBe('a\\\\b\\nc\\rd\\te "é" \\\\N');
    expect(copyText('plain')).toBe('plain');
  });

  it('writes objects as JSON, its escapes escaped again', () => {
    expect(copyText({ text: 'line\none', quote: '"' })).toBe('{"text":"line\\\\none","quote":"\\\\""}');
  });
});
