/**
 * The workspace's texts: ICU messages (intl-messageformat) laid out per locale and feature,
 * messages/<locale>/<feature>.json (the app's frame in app.json, a feature's parts in a folder
 * of its name, e.g. access/members.json), so each feature's texts live beside each other and
 * another language is one more folder. Only en-US so far.
 */
import { createTranslate, type Messages, type Translate } from '../../shared/i18n/translate.ts';

export type { Messages, Translate };

export const LOCALE = 'en-US';

/** A translate function over `messages` (the web apps' one translator): a missing key shows as the key; never throws. */
export function translator(messages: Messages, locale: string = LOCALE): Translate {
  return createTranslate(locale, messages);
}

const files = import.meta.glob<Messages>('../messages/*/**/*.json', { import: 'default', eager: true });

/** The messages of one locale: every feature's file under messages/<locale>/, merged. */
export function messagesOf(locale: string): Messages {
  const prefix = `../messages/${locale}/`;
  const own = Object.entries(files).filter(([path]) => path.startsWith(prefix));
  return Object.assign({}, ...own.map(([, messages]) => messages)) as Messages;
}

export const t: Translate = translator(messagesOf(LOCALE));
