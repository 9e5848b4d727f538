/**
 * The web apps' one translator: ICU messages (intl-messageformat) looked up by key, and the
 * choice of a supported locale for a wanted one. Each app keeps where its messages come from
 * (the client's form loads one locale's file when chosen; the workspace merges its feature
 * files); both translate through here.
 *
 *   const t = createTranslate('de-DE', german, english);
 *   t('progress.label', { current: 2, total: 4 }); // "Schritt 2 von 4"
 *   pickLocale('de-AT', LOCALES, 'en-US'); // "de-DE"
 */
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';

/**
 * A locale's messages by key: ICU texts, or their syntax trees as the web build parses them
 * (../precompile-messages.ts); intl-messageformat takes either.
 */
export type Messages = Record<string, string | MessageFormatElement[]>;
export type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * A translate function over one locale's messages. A key the messages lack falls back to
 * `fallback` (the default locale's, when loaded), then to the key itself, so a gap shows up
 * instead of breaking the page; a message that does not parse or format shows as its key too.
 */
export function createTranslate(locale: string, messages: Messages, fallback?: Messages): Translate {
  const cache = new Map<string, IntlMessageFormat | null>();
  return (key, values) => {
    let format = cache.get(key);
    if (format === undefined) {
      const source = messages[key] ?? fallback?.[key];
      try {
        format = source === undefined ? null : new IntlMessageFormat(source, locale);
      } catch {
        format = null;
      }
      cache.set(key, format);
    }
    if (!format) return key;
    try {
      return String(format.format(values as Record<string, string | number>));
    } catch {
      return key;
    }
  };
}

/** The supported locale for a wanted one (e.g. a client's): exact, else the same language, else the default. */
export function pickLocale<L extends string>(
  wanted: string | null | undefined,
  locales: readonly L[],
  defaultLocale: L,
): L {
  if (!wanted) return defaultLocale;
  const asked = wanted.toLowerCase().replace('_', '-');
  const exact = locales.find((locale) => locale.toLowerCase() === asked);
  if (exact) return exact;
  const language = asked.slice(0, 2);
  return locales.find((locale) => locale.toLowerCase().startsWith(`${language}-`)) ?? defaultLocale;
}
