/**
 * The workspace's texts: ICU messages (intl-messageformat) from messages/en-US.json and one
 * file per feature under messages/en-US/ (so each feature's texts live beside each other). Only
 * en-US so far; other languages are a later step (one folder per locale, like the client's form).
 */
import { IntlMessageFormat } from 'intl-messageformat';

export type Messages = Record<string, string>;
export type Translate = (key: string, values?: Record<string, unknown>) => string;

export const LOCALE = 'en-US';

/** A translate function over `messages`; a missing key shows as the key (and never throws). */
export function translator(messages: Messages, locale: string = LOCALE): Translate {
  const cache = new Map<string, IntlMessageFormat>();
  return (key, values) => {
    const text = messages[key];
    if (text === undefined) return key;
    let format = cache.get(key);
    if (!format) {
      format = new IntlMessageFormat(text, locale);
      cache.set(key, format);
    }
    return String(format.format(values as never));
  };
}

const files = import.meta.glob<Messages>(['../messages/en-US.json', '../messages/en-US/*.json'], {
  import: 'default',
  eager: true,
});

export const t: Translate = translator(Object.assign({}, ...Object.values(files)) as Messages);
