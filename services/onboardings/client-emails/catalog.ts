import { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../../shared/i18n/locales.ts';
import { DE_DE } from './messages/de-DE.ts';
import { EN_GB } from './messages/en-GB.ts';
import { EN_US, type EmailMessageKey, type EmailMessages } from './messages/en-US.ts';
import { ES_ES } from './messages/es-ES.ts';
import { FR_FR } from './messages/fr-FR.ts';
import { IT_IT } from './messages/it-IT.ts';
import { JA_JP } from './messages/ja-JP.ts';
import { NL_NL } from './messages/nl-NL.ts';
import { PT_BR } from './messages/pt-BR.ts';

/**
 * The texts of the client emails in the nine languages (one catalog a language under
 * ./messages/, ICU MessageFormat with intl-messageformat). A text a language lacks is
 * written in US English and reported in `fallbacks`: the render test fails on any.
 */
export const EMAIL_CATALOGS: Readonly<Record<Locale, Partial<EmailMessages>>> = {
  'en-US': EN_US,
  'en-GB': EN_GB,
  'es-ES': ES_ES,
  'fr-FR': FR_FR,
  'de-DE': DE_DE,
  'pt-BR': PT_BR,
  'it-IT': IT_IT,
  'nl-NL': NL_NL,
  'ja-JP': JA_JP,
};

export type EmailValues = Record<string, string | number>;

export interface EmailTranslator {
  locale: Locale;
  t(key: EmailMessageKey, values?: EmailValues): string;
  /** Keys written in US English because the language has no text for them. */
  fallbacks: EmailMessageKey[];
}

const formats = new Map<string, IntlMessageFormat>();

function format(locale: Locale, key: EmailMessageKey, message: string): IntlMessageFormat {
  const cacheKey = `${locale}\u0000${key}`;
  let compiled = formats.get(cacheKey);
  if (!compiled) {
    compiled = new IntlMessageFormat(message, locale, undefined, { ignoreTag: true });
    formats.set(cacheKey, compiled);
  }
  return compiled;
}

/** The language an email is written in: `locale` when it is one of the nine, else en-US. */
export const emailLocale = (locale: string | null | undefined): Locale =>
  isLocale(locale) ? locale : DEFAULT_LOCALE;

export function emailTranslator(requested: string | null | undefined): EmailTranslator {
  const locale = emailLocale(requested);
  const fallbacks: EmailMessageKey[] = [];
  return {
    locale,
    fallbacks,
    t(key, values = {}) {
      const own = EMAIL_CATALOGS[locale][key];
      if (own === undefined) fallbacks.push(key);
      const [usedLocale, message] = own === undefined ? [DEFAULT_LOCALE, EN_US[key]] : [locale, own];
      return String(format(usedLocale, key, message).format(values));
    },
  };
}
