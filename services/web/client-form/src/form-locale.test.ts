import { describe, expect, it } from 'vitest';
import { formLocale, supportedLocale } from './form-locale.ts';
import { createFormats } from './i18n.ts';

describe('the form language', () => {
  it("is the client's language when the team chose one, whatever the browser says", () => {
    expect(formLocale({ locale: 'ja-JP', locale_chosen: true }, ['de-DE'])).toBe('ja-JP');
    expect(formLocale({ locale: 'ja-JP' }, ['de-DE'])).toBe('ja-JP');
    expect(formLocale({ locale: 'sv-SE', locale_chosen: true }, ['de-DE'])).toBe('en-US');
  });

  it("is the browser's language when it is one of the nine, else the team's", () => {
    const unchosen = { locale: 'fr-FR', locale_chosen: false };
    expect(formLocale(unchosen, ['de-DE', 'en-US'])).toBe('de-DE');
    expect(formLocale(unchosen, ['sv-SE', 'de-AT'])).toBe('de-DE');
    expect(formLocale(unchosen, ['sv-SE', 'fi'])).toBe('fr-FR');
    expect(formLocale(null, ['ja'])).toBe('ja-JP');
    expect(formLocale(null, [])).toBe('en-US');
    expect(supportedLocale('pt-PT')).toBe('pt-BR');
    expect(supportedLocale('sv')).toBeNull();
  });

  it("writes dates in the client's format, else as the form's language usually does", () => {
    const chosen = { date_format: 'DD/MM/YYYY', timezone: 'UTC', date_format_chosen: true };
    expect(createFormats('de-DE', chosen).date('1990-06-23')).toBe('23/06/1990');
    const unchosen = { ...chosen, date_format_chosen: false };
    expect(createFormats('de-DE', unchosen).date('1990-06-23')).toBe('23.06.1990');
    expect(createFormats('ja-JP', unchosen).parseDate('1990/06/23')).toBe('1990-06-23');
    expect(createFormats('de-DE', unchosen).parseDate('23.06.1990')).toBe('1990-06-23');
    expect(createFormats('en-US', null).datePattern).toBe('MM/DD/YYYY');
    // Answers read back (the review, the done screen's copy) are dates as people read them.
    expect(createFormats('de-DE', unchosen).longDate('1990-06-23')).toBe('23. Juni 1990');
    expect(createFormats('ja-JP', chosen).longDate('1990-06-23')).toBe('1990年6月23日');
  });
});
