/**
 * The workspace's texts: ICU messages (intl-messageformat) laid out per locale and feature,
 * messages/<locale>/<feature>.json (the app's frame in app.json, a feature's parts in a folder
 * of its name, e.g. access/members.json), so each feature's texts live beside each other and
 * another language is one more folder. The workspace speaks the nine languages of the client's
 * form: each member reads it in the language they chose, else their team's
 * (docs/decisions/0096-the-workspace-in-nine-languages.md).
 *
 * US English is bundled (the texts before sign-in and the fallback of a missing key); another
 * language is loaded once when a member who reads it signs in (`useLocale`), so a member
 * downloads one language, not nine.
 */
import { createTranslate, pickLocale, type Messages, type Translate } from '../../shared/i18n/translate.ts';
import { LOCALES } from '../../../../shared/i18n/locales.ts';

export type { Messages, Translate };

/** The workspace's default language: its texts before sign-in and the fallback of a missing key. */
export const LOCALE = 'en-US';

/** A translate function over `messages` (the web apps' one translator): a missing key shows as the key; never throws. */
export function translator(messages: Messages, locale: string = LOCALE, fallback?: Messages): Translate {
  return createTranslate(locale, messages, fallback);
}

const bundled = import.meta.glob<Messages>('../messages/en-US/**/*.json', { import: 'default', eager: true });
const loadable = import.meta.glob<Messages>(['../messages/*/**/*.json', '!../messages/en-US/**'], {
  import: 'default',
});

const merged = (files: Messages[]) => Object.assign({}, ...files) as Messages;

/** The messages of the bundled locale (US English): every feature's file under messages/en-US/, merged. */
export function messagesOf(locale: string): Messages {
  const prefix = `../messages/${locale}/`;
  return merged(
    Object.entries(bundled).flatMap(([path, messages]) => (path.startsWith(prefix) ? [messages] : [])),
  );
}

const english = messagesOf(LOCALE);
let current = { locale: LOCALE, translate: translator(english) };

/** The language the workspace speaks now (for Intl formats of dates, numbers and amounts). */
export function currentLocale(): string {
  return current.locale;
}

/** Translates in the current language; a key it lacks reads in US English. */
export const t: Translate = (key, values) => current.translate(key, values);

/** The supported locale of a wanted one (a member's choice or their team's), US English otherwise. */
export function workspaceLocale(wanted: string | null | undefined): string {
  return wanted ? pickLocale(wanted, LOCALES, LOCALE) : LOCALE;
}

/**
 * Speaks `wanted` from now on: loads its messages (once) and swaps the translator. Resolves
 * with the locale spoken; a language whose files fail to load leaves US English.
 */
export async function speak(wanted: string | null | undefined): Promise<string> {
  const locale = workspaceLocale(wanted);
  if (locale === current.locale) return locale;
  if (locale === LOCALE) {
    current = { locale, translate: translator(english) };
  } else {
    const prefix = `../messages/${locale}/`;
    const files = Object.entries(loadable).filter(([path]) => path.startsWith(prefix));
    try {
      const messages = merged(await Promise.all(files.map(([, load]) => load())));
      current = { locale, translate: translator(messages, locale, english) };
    } catch {
      return current.locale;
    }
  }
  document.documentElement.lang = locale;
  return locale;
}
