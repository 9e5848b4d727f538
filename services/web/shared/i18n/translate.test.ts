import { describe, expect, it } from 'vitest';
import { createTranslate, pickLocale } from './translate.ts';

const LOCALES = ['en-US', 'de-DE', 'ja-JP'] as const;

describe('pickLocale', () => {
  it('keeps a supported locale, else its language, else the default', () => {
    expect(pickLocale('de-DE', LOCALES, 'en-US')).toBe('de-DE');
    expect(pickLocale('ja_JP', LOCALES, 'en-US')).toBe('ja-JP');
    expect(pickLocale('DE-at', LOCALES, 'en-US')).toBe('de-DE');
    expect(pickLocale('sv-SE', LOCALES, 'en-US')).toBe('en-US');
    expect(pickLocale(null, LOCALES, 'en-US')).toBe('en-US');
    expect(pickLocale('', LOCALES, 'en-US')).toBe('en-US');
  });
});

describe('createTranslate', () => {
  const english = { 'files.count': '{count, plural, one {# file} other {# files}}', 'nav.back': 'Back' };

  it('formats ICU messages in the locale', () => {
    const t = createTranslate('en-US', english);
    expect(t('files.count', { count: 1 })).toBe('1 file');
    expect(t('files.count', { count: 1200 })).toBe('1,200 files');
  });

  it('falls back to the default messages, then to the key, and never throws', () => {
    const t = createTranslate('de-DE', { 'nav.next': 'Weiter', broken: '{oops' }, english);
    expect(t('nav.next')).toBe('Weiter');
    expect(t('nav.back')).toBe('Back');
    expect(t('no.such.key')).toBe('no.such.key');
    expect(t('broken')).toBe('broken');
    expect(createTranslate('en-US', english)('files.count')).toBe('files.count');
  });
});
