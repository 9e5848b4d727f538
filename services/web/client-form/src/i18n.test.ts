import { describe, expect, it } from 'vitest';
import { createFormats, createTranslate, loadMessages, pickLocale } from './i18n.ts';

describe('pickLocale', () => {
  it('keeps a supported locale and falls back to en-US', () => {
    expect(pickLocale('de-DE')).toBe('de-DE');
    expect(pickLocale('ja_JP')).toBe('ja-JP');
    expect(pickLocale('de-AT')).toBe('de-DE');
    expect(pickLocale('sv-SE')).toBe('en-US');
    expect(pickLocale(null)).toBe('en-US');
    expect(pickLocale('')).toBe('en-US');
  });
});

describe('translate', () => {
  it('formats ICU messages and falls back for a missing key', async () => {
    const messages = await loadMessages('en-US');
    const t = createTranslate('en-US', messages);
    expect(t('progress.label', { current: 2, total: 4 })).toBe('Step 2 of 4');
    expect(t('review.filesCount', { count: 1 })).toBe('1 file');
    const partial = createTranslate('de-DE', { 'nav.next': 'Weiter' }, messages);
    expect(partial('nav.next')).toBe('Weiter');
    expect(partial('nav.back')).toBe('Back');
    expect(partial('no.such.key')).toBe('no.such.key');
  });
});

describe('formats', () => {
  it('formats numbers, money and sizes in the page language and dates in the client format', () => {
    const formats = createFormats('de-DE', { date_format: 'DD.MM.YYYY', timezone: 'Europe/Berlin' });
    expect(formats.number(1234.5)).toBe('1.234,5');
    expect(formats.money(125000, 'EUR')).toMatch(/^1\.250,00\s€$/);
    expect(formats.money(500, 'JPY')).toMatch(/500/);
    expect(formats.fileSize(2.5 * 1024 * 1024)).toMatch(/2,5\sMB/);
    expect(formats.date('2026-12-31T23:30:00Z')).toBe('01.01.2027');
    expect(formats.datePattern).toBe('DD.MM.YYYY');
    expect(formats.parseDate('31.12.2026')).toBe('2026-12-31');
  });
});
