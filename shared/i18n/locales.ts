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

/** Each language named in its own language (the language pickers). */
export const LANGUAGE_NAMES: Readonly<Record<Locale, string>> = {
  'en-US': 'English (US)',
  'en-GB': 'English (UK)',
  'es-ES': 'Español',
  'fr-FR': 'Français',
  'de-DE': 'Deutsch',
  'pt-BR': 'Português (Brasil)',
  'it-IT': 'Italiano',
  'nl-NL': 'Nederlands',
  'ja-JP': '日本語',
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export const DATE_FORMATS = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD', 'DD.MM.YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** The date format of a team or client that names none. */
export const DEFAULT_DATE_FORMAT: DateFormat = 'MM/DD/YYYY';

/** The date format readers of each language usually use (the demo form's default). */
export const USUAL_DATE_FORMAT: Readonly<Record<Locale, DateFormat>> = {
  'en-US': 'MM/DD/YYYY',
  'en-GB': 'DD/MM/YYYY',
  'es-ES': 'DD/MM/YYYY',
  'fr-FR': 'DD/MM/YYYY',
  'de-DE': 'DD.MM.YYYY',
  'pt-BR': 'DD/MM/YYYY',
  'it-IT': 'DD/MM/YYYY',
  'nl-NL': 'DD/MM/YYYY',
  'ja-JP': 'YYYY-MM-DD',
};
