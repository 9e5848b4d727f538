import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../../../shared/i18n/locales.ts';

/**
 * The workspace speaks the nine languages of the client's form: every locale's folder holds
 * the same files as US English, with every key and no other, the same placeholders, valid
 * ICU MessageFormat, and longer texts really translated (en-GB may keep US wording).
 */
const root = fileURLToPath(new URL('.', import.meta.url));

function filesOf(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return filesOf(path);
    return name.endsWith('.json') ? [relative(join(root, 'en-US'), path)] : [];
  });
}

const load = (locale: string, file: string) =>
  JSON.parse(readFileSync(join(root, locale, file), 'utf8')) as Record<string, string>;
const placeholders = (message: string) =>
  [...message.matchAll(/\{\s*([a-zA-Z_]+)\s*[,}]/g)].map((match) => match[1]).sort();

const FILES = filesOf(join(root, 'en-US'));

describe('the workspace’s messages', () => {
  it.each(LOCALES)('%s has every file and key of en-US and no other', (locale) => {
    expect(filesOf(join(root, locale)).sort()).toEqual([...FILES].sort());
    for (const file of FILES) {
      expect(Object.keys(load(locale, file)).sort(), `${locale}/${file}`).toEqual(
        Object.keys(load('en-US', file)).sort(),
      );
    }
  });

  it.each(LOCALES)('%s: every message parses, keeps the source placeholders and is translated', (locale) => {
    for (const file of FILES) {
      const source = load('en-US', file);
      for (const [key, message] of Object.entries(load(locale, file))) {
        if (source[key] === undefined) continue;
        expect(() => new IntlMessageFormat(message, locale), key).not.toThrow();
        expect(new Set(placeholders(message)), `${locale} ${key}`).toEqual(
          new Set(placeholders(source[key])),
        );
        if (!locale.startsWith('en-') && message.replace(/\{[^}]*\}/g, '').length > 12) {
          expect(message, `${locale} ${key} is not translated`).not.toBe(source[key]);
        }
      }
    }
  });
});
