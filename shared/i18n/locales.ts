/**
 * The nine languages of the client's form page (and of a team's and a client's settings),
 * each named in its own language for the pickers, and the four date formats a team or a
 * client may choose. Defined once, pure and free of Node imports: the service's schemas and
 * both web apps import these lists.
 */

export const LOCALES = [
  'en-US',
  'en-GB',
  'es-ES',
  'fr-FR',
  'de-DE',
  'pt-BR',
  'it-IT',
  'nl-NL',
  'ja-JP',
] as const;
export type Locale = (typeof LOCALES)[number];

/** The language of a team or client that names none, and the one every text is written in first. */
export const DEFAULT_LOCALE: Locale = 'en-US';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export const DATE_FORMATS = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD', 'DD.MM.YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** The date format of a team or client that names none. */
export const DEFAULT_DATE_FORMAT: DateFormat = 'MM/DD/YYYY';

/**
 * Each language: its name in its own language (the language pickers) and the date format
 * its readers usually use (the demo form's default). One row a language.
 */
const LANGUAGES: Readonly<Record<Locale, { name: string; dateFormat: DateFormat }>> = {
  'en-US': { name: 'English (US)', dateFormat: 'MM/DD/YYYY' },
  'en-GB': { name: 'English (UK)', dateFormat: 'DD/MM/YYYY' },
  'es-ES': { name: 'Español', dateFormat: 'DD/MM/YYYY' },
  'fr-FR': { name: 'Français', dateFormat: 'DD/MM/YYYY' },
  'de-DE': { name: 'Deutsch', dateFormat: 'DD.MM.YYYY' },
  'pt-BR': { name: 'Português (Brasil)', dateFormat: 'DD/MM/YYYY' },
  'it-IT': { name: 'Italiano', dateFormat: 'DD/MM/YYYY' },
  'nl-NL': { name: 'Nederlands', dateFormat: 'DD/MM/YYYY' },
  'ja-JP': { name: '日本語', dateFormat: 'YYYY-MM-DD' },
};

const byLocale = <T>(pick: (language: (typeof LANGUAGES)[Locale]) => T): Readonly<Record<Locale, T>> =>
  Object.fromEntries(LOCALES.map((locale) => [locale, pick(LANGUAGES[locale])])) as Record<Locale, T>;

/** Each language named in its own language (the language pickers). */
export const LANGUAGE_NAMES: Readonly<Record<Locale, string>> = byLocale((language) => language.name);

/** The date format readers of each language usually use (the demo form's default). */
export const USUAL_DATE_FORMAT: Readonly<Record<Locale, DateFormat>> = byLocale(
  (language) => language.dateFormat,
);
