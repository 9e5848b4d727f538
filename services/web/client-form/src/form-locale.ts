/**
 * The language the form opens in (docs/decisions/0078): the client's when the team chose one
 * for the client; else the first of the browser's languages that is one of the nine (de-AT
 * reads as de-DE); else the client's record, which holds the team's language.
 */
import { isLocale, LOCALES, pickLocale, type Locale } from './i18n.ts';

/** One of the nine for a browser language (exact, else the same language); null for none. */
export function supportedLocale(language: string): Locale | null {
  const picked = pickLocale(language);
  if (picked.toLowerCase() === language.toLowerCase().replace('_', '-')) return picked;
  const asked = language.slice(0, 2).toLowerCase();
  return LOCALES.find((locale) => locale.toLowerCase().startsWith(`${asked}-`)) ?? null;
}

export function formLocale(
  client: { locale: string; locale_chosen?: boolean } | null,
  browserLanguages: readonly string[],
): Locale {
  if (client && client.locale_chosen !== false) return pickLocale(client.locale);
  for (const language of browserLanguages) {
    const supported = supportedLocale(language);
    if (supported) return supported;
  }
  return isLocale(client?.locale) ? client.locale : pickLocale(client?.locale);
}
