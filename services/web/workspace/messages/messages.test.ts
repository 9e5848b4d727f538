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

/** The catalog files of one locale's folder, as paths relative to it. */
function filesOf(top: string, folder = top): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return filesOf(top, path);
    return name.endsWith('.json') ? [relative(top, path)] : [];
  });
}

const load = (locale: string, file: string) =>
  JSON.parse(readFileSync(join(root, locale, file), 'utf8')) as Record<string, string>;
type Element = {
  type: number;
  value?: unknown;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
};

/**
 * The argument names a message uses and whether it writes a phrase (two words or more in one
 * run of text), read from its ICU syntax tree.
 */
function parsed(message: string, locale: string): { names: Set<string>; phrase: boolean } {
  const names = new Set<string>();
  let phrase = false;
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      // 0 literal, 1 argument, 2 number, 3 date, 4 time, 5 select, 6 plural, 8 tag (intl-messageformat's TYPE).
      if (element.type === 0 && typeof element.value === 'string') {
        phrase ||= (element.value.match(/\p{L}{2,}/gu) ?? []).length > 1;
      }
      if (element.type >= 1 && element.type <= 6 && typeof element.value === 'string')
        names.add(element.value);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
      if (element.children) walk(element.children);
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst() as unknown as Element[]);
  return { names, phrase };
}

const FILES = filesOf(join(root, 'en-US'));
/**
 * Texts that read the same in a language as in US English: product names (the plans) and
 * words the language borrows as they are (checked by a reader, one key a line).
 */
const SAME_AS_ENGLISH = new Set(['onboardings.pin', 'signatures.userAgent', 'webhooks.deliveryId']);
const named = (key: string) => key.startsWith('settings.plan.name.') || SAME_AS_ENGLISH.has(key);

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
    const problems: string[] = [];
    for (const file of FILES) {
      const source = load('en-US', file);
      for (const [key, message] of Object.entries(load(locale, file))) {
        const english = source[key];
        if (english === undefined) continue;
        let phrase: boolean;
        try {
          const read = parsed(message, locale);
          const used = [...read.names].sort().join(', ');
          const wanted = [...parsed(english, 'en-US').names].sort().join(', ');
          if (used !== wanted) problems.push(`${key}: placeholders {${used}} instead of {${wanted}}`);
          phrase = read.phrase;
        } catch {
          problems.push(`${key}: not valid ICU MessageFormat`);
          continue;
        }
        // A phrase left in English; one word may read the same in both (Notifications, Webhooks).
        if (!locale.startsWith('en-') && !named(key) && phrase && message === english) {
          problems.push(`${key}: not translated`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
