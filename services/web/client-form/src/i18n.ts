/**
 * The page's texts: ICU messages from messages/<locale>.json, translated by the web apps' one
 * translator (../../shared/i18n). Each locale is its own chunk, loaded when chosen, so the
 * first screen carries one language.
 */
import { pickLocale as pickSupported, type Messages } from '../../shared/i18n/translate.ts';
import { dateFormatOf, formatDate, formatTime, parseDate } from './dates.ts';
import { humanDate } from '../../../../shared/i18n/human-date.ts';
import {
  DEFAULT_LOCALE,
  isLocale,
  LOCALES,
  USUAL_DATE_FORMAT,
  type Locale,
} from '../../../../shared/i18n/locales.ts';

/** The nine locales and their names are the service's (shared/i18n/locales.ts). */
export {
  DEFAULT_LOCALE,
  isLocale,
  LANGUAGE_NAMES,
  LOCALES,
  type Locale,
} from '../../../../shared/i18n/locales.ts';

export { createTranslate, type Messages, type Translate } from '../../shared/i18n/translate.ts';

export interface Formats {
  /** An ISO instant or a YYYY-MM-DD date in the client's date format (and timezone for instants). */
  date(isoOrYmd: string): string;
  /** The same date as people read it in the page's language ("23. Juni 1990"): answers read back, not typed. */
  longDate(isoOrYmd: string): string;
  /** An ISO instant as the client's date and the time of day in their timezone. */
  dateTime(iso: string): string;
  number(n: number): string;
  /** An amount in minor units (cents) of an ISO 4217 currency. */
  money(cents: number, currency: string): string;
  fileSize(bytes: number): string;
  /** The client's date format as shown to people, e.g. DD.MM.YYYY. */
  datePattern: string;
  /** A date typed in the client's format as YYYY-MM-DD; null when it is not a real date. */
  parseDate(text: string): string | null;
}

/** The supported locale for a client's locale: exact, else the same language, else en-US. */
export function pickLocale(wanted: string | null | undefined): Locale {
  return pickSupported(wanted, LOCALES, DEFAULT_LOCALE);
}

const loaders = import.meta.glob<Messages>('../messages/*.json', { import: 'default' });

/** The messages of a locale; en-US when that locale's file cannot be loaded. */
export async function loadMessages(locale: Locale): Promise<Messages> {
  const load = loaders[`../messages/${locale}.json`];
  if (load) {
    try {
      return await load();
    } catch (error) {
      if (locale === DEFAULT_LOCALE) throw error;
    }
  }
  if (locale === DEFAULT_LOCALE) throw new Error('The en-US messages are missing');
  return loadMessages(DEFAULT_LOCALE);
}

/**
 * The page's formats. Dates are in the client's date format; a client that chose none (or
 * no client: the builder's preview) reads dates as the page's language usually writes them.
 */
export function createFormats(
  locale: string,
  client: { date_format: string; timezone: string; date_format_chosen?: boolean } | null,
): Formats {
  const usual = isLocale(locale) ? USUAL_DATE_FORMAT[locale] : undefined;
  const dateFormat =
    client && client.date_format_chosen !== false ? dateFormatOf(client.date_format) : dateFormatOf(usual);
  const timeZone = client?.timezone ?? 'UTC';
  const numbers = new Intl.NumberFormat(locale);
  return {
    date: (value) => formatDate(value, dateFormat, timeZone),
    longDate: (value) => humanDate(value, locale, timeZone),
    dateTime: (value) => {
      const time = formatTime(value, locale, timeZone);
      return time ? `${formatDate(value, dateFormat, timeZone)} ${time}` : value;
    },
    number: (n) => numbers.format(n),
    money: (cents, currency) => {
      try {
        const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
        const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
        return format.format(cents / 10 ** digits);
      } catch {
        return `${numbers.format(cents / 100)} ${currency}`;
      }
    },
    fileSize: (bytes) => {
      const [unit, size] =
        bytes >= 1024 * 1024
          ? (['megabyte', bytes / 1024 / 1024] as const)
          : bytes >= 1024
            ? (['kilobyte', bytes / 1024] as const)
            : (['byte', bytes] as const);
      return new Intl.NumberFormat(locale, {
        style: 'unit',
        unit,
        // "70 bytes", "70 octets": the short form of byte is not a word in every locale.
        unitDisplay: unit === 'byte' ? 'long' : 'short',
        maximumFractionDigits: unit === 'byte' ? 0 : 1,
      }).format(size);
    },
    datePattern: dateFormat,
    parseDate: (text) => parseDate(text, dateFormat),
  };
}
