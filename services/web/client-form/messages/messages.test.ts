import { readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../../../shared/i18n/locales.ts';

/**
 * Every language of the client's form says everything the US English source says, with
 * the same placeholders, and every message is valid ICU MessageFormat in its locale.
 */
const load = (locale: string) =>
  JSON.parse(readFileSync(new URL(`./${locale}.json`, import.meta.url), 'utf8')) as Record<string, string>;

const placeholders = (message: string) =>
  [...message.matchAll(/\{\s*([a-zA-Z_]+)\s*[,}]/g)].map((match) => match[1]).sort();

describe('the form’s messages', () => {
  const source = load('en-US');

  it.each(LOCALES)('%s has every key of en-US and no other', (locale) => {
    expect(Object.keys(load(locale)).sort()).toEqual(Object.keys(source).sort());
  });

  it.each(LOCALES)('%s: every message parses and keeps the source placeholders', (locale) => {
    const messages = load(locale);
    for (const [key, message] of Object.entries(messages)) {
      expect(() => new IntlMessageFormat(message, locale), key).not.toThrow();
      expect(new Set(placeholders(message)), key).toEqual(new Set(placeholders(source[key]!)));
      if (locale !== 'en-US' && locale !== 'en-GB' && message.replace(/\{[^}]*\}/g, '').length > 12) {
        expect(message, `${locale} ${key} is not translated`).not.toBe(source[key]);
      }
    }
  });
});
