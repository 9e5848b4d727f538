import { describe, expect, it } from 'vitest';
import {
  numberSymbols,
  parseLocaleNumber as parseIn,
  symbolsOf,
  formatNumberForInput as formatIn,
} from './number-input.ts';

const parseLocaleNumber = (text: string, locale: string) => parseIn(text, numberSymbols(locale));
const formatNumber = (value: number, locale: string) => formatIn(value, numberSymbols(locale));

describe('parseLocaleNumber', () => {
  it('reads the decimal separator of each of the form locales', () => {
    expect(parseLocaleNumber('1234.5', 'en-US')).toBe(1234.5);
    expect(parseLocaleNumber('1234.5', 'en-GB')).toBe(1234.5);
    expect(parseLocaleNumber('1234.5', 'ja-JP')).toBe(1234.5);
    for (const locale of ['de-DE', 'es-ES', 'fr-FR', 'pt-BR', 'it-IT', 'nl-NL']) {
      expect(parseLocaleNumber('1234,5', locale)).toBe(1234.5);
    }
  });

  it('takes group separators in groups of three', () => {
    expect(parseLocaleNumber('1,234,567.25', 'en-US')).toBe(1234567.25);
    expect(parseLocaleNumber('1.234.567,25', 'de-DE')).toBe(1234567.25);
    expect(parseLocaleNumber('1 234 567,25', 'fr-FR')).toBe(1234567.25);
    expect(parseLocaleNumber('1\u202f234,5', 'fr-FR')).toBe(1234.5);
  });

  it('refuses text that is not a number in the locale rather than guessing', () => {
    expect(parseLocaleNumber('1.5', 'de-DE')).toBeUndefined();
    expect(parseLocaleNumber('1,5', 'en-US')).toBeUndefined();
    expect(parseLocaleNumber('12,34', 'en-US')).toBeUndefined();
    expect(parseLocaleNumber('abc', 'en-US')).toBeUndefined();
    expect(parseLocaleNumber('1e5', 'en-US')).toBeUndefined();
    expect(parseLocaleNumber('1.2.3', 'en-US')).toBeUndefined();
  });

  it('reads signs, a leading separator and blank text', () => {
    expect(parseLocaleNumber('-42', 'en-US')).toBe(-42);
    expect(parseLocaleNumber('\u22123,5', 'de-DE')).toBe(-3.5);
    expect(parseLocaleNumber(',5', 'it-IT')).toBe(0.5);
    expect(parseLocaleNumber('  7  ', 'ja-JP')).toBe(7);
    expect(parseLocaleNumber('', 'en-US')).toBeNull();
    expect(parseLocaleNumber('   ', 'de-DE')).toBeNull();
  });
});

describe('symbolsOf', () => {
  it('reads the separators off a number format', () => {
    expect(symbolsOf((n) => new Intl.NumberFormat('de-DE').format(n))).toEqual({ decimal: ',', group: '.' });
    expect(symbolsOf((n) => new Intl.NumberFormat('fr-FR').format(n))).toEqual({
      decimal: ',',
      group: '\u202f',
    });
    expect(symbolsOf((n) => new Intl.NumberFormat('ja-JP').format(n))).toEqual({ decimal: '.', group: ',' });
  });
});

describe('formatNumberForInput', () => {
  it('shows a stored number with the locale decimal separator and no grouping', () => {
    expect(formatNumber(1234.5, 'en-US')).toBe('1234.5');
    expect(formatNumber(1234.5, 'de-DE')).toBe('1234,5');
    expect(formatNumber(0.125, 'fr-FR')).toBe('0,125');
    expect(formatNumber(-3, 'ja-JP')).toBe('-3');
  });

  it('round-trips through parseLocaleNumber', () => {
    for (const locale of ['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'pt-BR']) {
      for (const value of [0, 1, -2.5, 1234567.891, 0.001]) {
        expect(parseLocaleNumber(formatNumber(value, locale), locale)).toBe(value);
      }
    }
  });
});
